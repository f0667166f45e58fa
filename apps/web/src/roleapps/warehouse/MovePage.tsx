import SwapVert from "@mui/icons-material/SwapVert";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { dec } from "@workmetrics/domain/documents/decimal";
import { useState } from "react";
import toast from "react-hot-toast";
import { runOrQueue } from "../shell/outbox.ts";
import { ScanField, type ScannedProduct } from "../shell/ScanField.tsx";
import { useLocations } from "./data.ts";
import { LocationField } from "./LocationField.tsx";
import { LoadError, Loading, OfflineNote, PageHead, QtyStepper } from "./widgets.tsx";

// Move (issue 22): scan the product, the location it leaves and the one it goes to, the quantity; the move is a
// goods transfer form dispatched and received at once (the back office lists it with the others).
export function MovePage() {
  const locations = useLocations();
  const [product, setProduct] = useState<ScannedProduct | null>(null);
  const [from, setFrom] = useState<number | null>(null);
  const [to, setTo] = useState<number | null>(null);
  const [qty, setQty] = useState("1");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  if (locations.isPending) return <Loading label="Loading the locations" />;
  if (locations.error && !locations.data) {
    return <LoadError error={locations.error} retry={() => void locations.refetch()} />;
  }
  const all = locations.data ?? [];
  const name = (id: number | null) => all.find((l) => l.id === id)?.name ?? "";

  const move = async () => {
    setProblem(null);
    if (!product) return setProblem("Scan the product to move");
    if (!from || !to) return setProblem("Scan both locations");
    if (from === to) return setProblem("Scan two different locations: the product moves from one to the other");
    if (!qty || !dec(qty).greaterThan(0)) return setProblem("The quantity to move must be more than 0");
    setBusy(true);
    try {
      const res = await runOrQueue(
        "warehouse_move",
        { product_id: product.id, from_location_id: from, to_location_id: to, qty },
        { label: `Move ${qty} ${product.name} from ${name(from)} to ${name(to)}` },
      );
      if (res.status === "refused") return setProblem(res.message);
      toast.success(
        res.status === "done"
          ? `Moved ${qty} ${product.name} to ${name(to)} (${res.result.number})`
          : "Saved on this phone — the move is sent when the network is back",
      );
      setProduct(null);
      setQty("1");
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ pb: 2 }}>
      <PageHead title="Move" sub="From one location to another" />
      <OfflineNote isOffline={locations.isOffline} savedAt={locations.savedAt} what="the locations" />
      <ScanField label="Product" placeholder="Scan or search the product" onProduct={(p) => setProduct(p)} />
      {product && (
        <Card variant="outlined" sx={{ p: 1.5, mt: 1 }}>
          <Typography sx={{ fontWeight: 600 }}>{product.name}</Typography>
          <Typography variant="body2" color="text.secondary">
            {product.sku}
          </Typography>
        </Card>
      )}
      <Stack spacing={1} sx={{ mt: 2 }}>
        <LocationField
          label="From"
          scanPrompt="Scan the code of the location it leaves"
          locations={all}
          value={from}
          onChange={setFrom}
        />
        <Box sx={{ textAlign: "center" }}>
          <IconButton
            aria-label="Swap the two locations"
            onClick={() => {
              setFrom(to);
              setTo(from);
            }}
            sx={{ width: 48, height: 48 }}
          >
            <SwapVert />
          </IconButton>
        </Box>
        <LocationField
          label="To"
          scanPrompt="Scan the code of the location it goes to"
          locations={all}
          value={to}
          onChange={setTo}
        />
      </Stack>
      <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between", mt: 1 }}>
        <Typography>Quantity</Typography>
        <QtyStepper label="Quantity to move" value={qty} onChange={setQty} />
      </Stack>
      {problem && (
        <Alert severity="error" sx={{ mt: 1.5 }}>
          {problem}
        </Alert>
      )}
      <Button
        fullWidth
        variant="contained"
        size="large"
        disabled={busy}
        onClick={() => void move()}
        sx={{ mt: 2, minHeight: 56, fontSize: 18 }}
      >
        {busy ? "Moving…" : "Move"}
      </Button>
    </Box>
  );
}
