import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { dec } from "@workmetrics/domain/documents/decimal";
import { useEffect, useState } from "react";
import toast from "react-hot-toast";
import { useSearchParams } from "react-router";
import { runOrQueue, useOutbox } from "../shell/outbox.ts";
import { ScanField } from "../shell/ScanField.tsx";
import { type SheetProduct, useCountSheet, useLocations } from "./data.ts";
import { LocationField } from "./LocationField.tsx";
import { Empty, LoadError, Loading, OfflineNote, PageHead, QtyStepper } from "./widgets.tsx";

// Count (issue 22): a blind count of one location — the products kept there (by bin), never how many the books say;
// each scan adds one, or the quantity is typed. Submitting sends the counts for a manager to review; products left
// blank are not counted. The counts in progress are kept on the phone (a reload does not lose them).

const draftKey = (location: number) => `warehouse-count:${location}`;

function loadDraft(location: number): { counts: Record<number, string>; extra: SheetProduct[] } {
  try {
    const saved = JSON.parse(localStorage.getItem(draftKey(location)) ?? "null");
    if (saved && typeof saved === "object") return { counts: saved.counts ?? {}, extra: saved.extra ?? [] };
  } catch {
    // a damaged draft starts afresh
  }
  return { counts: {}, extra: [] };
}

export function CountPage() {
  const locations = useLocations();
  const [params, setParams] = useSearchParams();
  const location = Number(params.get("location")) || null;
  const sheet = useCountSheet(location);
  const [counts, setCounts] = useState<Record<number, string>>({});
  const [extra, setExtra] = useState<SheetProduct[]>([]);
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const waiting = useOutbox().pending.filter((e) => e.name === "stock_count_submit");

  useEffect(() => {
    if (!location) return;
    const d = loadDraft(location);
    setCounts(d.counts);
    setExtra(d.extra);
  }, [location]);
  useEffect(() => {
    if (location) localStorage.setItem(draftKey(location), JSON.stringify({ counts, extra }));
  }, [location, counts, extra]);

  const all = locations.data ?? [];
  const where = all.find((l) => l.id === location);
  const products = [
    ...(sheet.data?.products ?? []),
    ...extra.filter((e) => !(sheet.data?.products ?? []).some((p) => p.product_id === e.product_id)),
  ];
  const counted = products.filter((p) => (counts[p.product_id] ?? "") !== "");

  const choose = (id: number | null) => setParams(id ? { location: String(id) } : {}, { replace: true });

  const scanned = (p: { id: number; name: string; sku: string; unit: string }) => {
    if (!products.some((x) => x.product_id === p.id)) {
      setExtra((e) => [...e, { product_id: p.id, name: p.name, sku: p.sku, unit: p.unit, bin: null }]);
    }
    setCounts((c) => ({
      ...c,
      [p.id]: dec(c[p.id] || "0")
        .plus(1)
        .toString(),
    }));
  };

  const submit = async () => {
    if (!location) return;
    setBusy(true);
    try {
      const res = await runOrQueue(
        "stock_count_submit",
        {
          location_id: location,
          lines: counted.map((p) => ({ product_id: p.product_id, counted_qty: counts[p.product_id] })),
        },
        {
          label: `Count of ${counted.length} product${counted.length === 1 ? "" : "s"} at ${where?.name ?? "a location"}`,
        },
      );
      setConfirm(false);
      if (res.status === "refused") {
        toast.error(res.message);
        return;
      }
      toast.success(
        res.status === "done"
          ? `Count ${res.result.number ?? ""} sent for review`
          : "Saved on this phone — the count is sent when the network is back",
      );
      localStorage.removeItem(draftKey(location));
      setCounts({});
      setExtra([]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ pb: 2 }}>
      <PageHead title="Count" sub="A blind count: count what is on the shelf" />
      {waiting.length > 0 && (
        <Alert severity="info" sx={{ mb: 1.5 }}>
          {waiting.length} count{waiting.length === 1 ? "" : "s"} saved on this phone wait
          {waiting.length === 1 ? "s" : ""} to be sent.
        </Alert>
      )}
      {locations.isPending ? (
        <Loading label="Loading the locations" />
      ) : locations.error && !locations.data ? (
        <LoadError error={locations.error} retry={() => void locations.refetch()} />
      ) : (
        <LocationField label="Location" locations={all} value={location} onChange={choose} />
      )}
      {location && (
        <>
          <OfflineNote isOffline={sheet.isOffline} savedAt={sheet.savedAt} what="the count sheet" />
          <ScanField label="Scan what you count" placeholder="Scan or search a product" onProduct={scanned} />
          {sheet.isPending ? (
            <Loading label="Loading the count sheet" />
          ) : sheet.error && !sheet.data ? (
            <LoadError error={sheet.error} retry={() => void sheet.refetch()} />
          ) : products.length === 0 ? (
            <Empty title="Nothing kept here yet">Scan a product you find here to count it.</Empty>
          ) : (
            <Stack spacing={1} sx={{ mt: 1.5 }}>
              <Typography variant="body2" color="text.secondary">
                {counted.length} of {products.length} counted
              </Typography>
              {products.map((p) => (
                <Card key={p.product_id} variant="outlined" sx={{ p: 1.5 }} data-testid={`count-${p.product_id}`}>
                  <Stack direction="row" spacing={1} sx={{ alignItems: "center", mb: 0.5 }}>
                    <Chip size="small" label={p.bin ?? "No bin"} color={p.bin ? "primary" : "default"} />
                    <Typography variant="body2" color="text.secondary" noWrap>
                      {p.sku}
                    </Typography>
                  </Stack>
                  <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between" }}>
                    <Typography sx={{ fontWeight: 600, pr: 1 }}>{p.name}</Typography>
                    <QtyStepper
                      label={`Counted of ${p.name}`}
                      value={counts[p.product_id] ?? ""}
                      onChange={(v) => setCounts((c) => ({ ...c, [p.product_id]: v }))}
                    />
                  </Stack>
                </Card>
              ))}
            </Stack>
          )}
          <Button
            fullWidth
            variant="contained"
            size="large"
            disabled={counted.length === 0}
            onClick={() => setConfirm(true)}
            sx={{ mt: 2, minHeight: 56, fontSize: 18 }}
          >
            Submit count
          </Button>
        </>
      )}
      <Dialog open={confirm} onClose={() => setConfirm(false)} fullWidth>
        <DialogTitle>Submit the count?</DialogTitle>
        <DialogContent>
          <Typography>
            {counted.length} product{counted.length === 1 ? "" : "s"} counted at {where?.name}. A manager reviews the
            differences before stock changes.
          </Typography>
          {counted.length < products.length && (
            <Alert severity="info" sx={{ mt: 1.5 }}>
              {products.length - counted.length} left blank {products.length - counted.length === 1 ? "is" : "are"} not
              counted.
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button size="large" onClick={() => setConfirm(false)}>
            Keep counting
          </Button>
          <Button size="large" variant="contained" disabled={busy} onClick={() => void submit()}>
            Submit
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
