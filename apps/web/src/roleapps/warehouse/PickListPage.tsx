import ArrowBack from "@mui/icons-material/ArrowBack";
import CheckCircle from "@mui/icons-material/CheckCircle";
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
import { useState } from "react";
import toast from "react-hot-toast";
import { Link, useNavigate, useParams } from "react-router";
import { runOrQueue } from "../shell/outbox.ts";
import { ScanField } from "../shell/ScanField.tsx";
import { type PickLine, qtyText, useLocations, usePickLists } from "./data.ts";
import { Empty, LoadError, Loading, OfflineNote, PageHead, QtyStepper } from "./widgets.tsx";

// Picking one list (issue 22): lines in location and bin order; a scanned product adds one to the first of its
// lines not yet fully picked; each change is sent as the line's picked total (so a replay cannot count twice).
// Finish makes the delivery order draft with what was picked.
export function PickListPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const picking = usePickLists();
  const locations = useLocations();
  const shown = picking.lists.find((p) => p.id === Number(id));
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  // What this phone last set on each line, laid over the shift data until a reload agrees: between a pick's answer
  // and the list's reload the old figure showed for a moment, and a tap then ("one more") counted from it.
  const [mine, setMine] = useState<Record<number, string>>({});
  const list = shown && {
    ...shown,
    lines: shown.lines.map((l) =>
      mine[l.id] !== undefined && !dec(mine[l.id]).equals(dec(l.qty_picked)) ? { ...l, qty_picked: mine[l.id] } : l,
    ),
  };

  if (picking.isPending) return <Loading label="Loading the pick list" />;
  if (picking.error && !picking.data) return <LoadError error={picking.error} retry={() => void picking.refetch()} />;
  if (!list) {
    return (
      <Box>
        <Back />
        <Empty title="This pick list is not open">It is finished or cancelled.</Empty>
      </Box>
    );
  }

  const where = (l: PickLine) => (locations.data ?? []).find((x) => x.id === l.location_id)?.name ?? "";

  const setPicked = async (line: PickLine, value: string) => {
    if (dec(value || "0").greaterThan(dec(line.qty))) {
      toast.error(`Only ${qtyText(line.qty)} of ${line.description} are to be picked`);
      return;
    }
    const before = mine[line.id];
    setMine((m) => ({ ...m, [line.id]: value || "0" }));
    const res = await runOrQueue(
      "pick_list_pick",
      { id: list.id, line_id: line.id, qty_picked: value || "0" },
      { label: `${list.number}: ${qtyText(value || "0")} of ${line.description} picked` },
    );
    if (res.status === "refused") {
      toast.error(res.message);
      setMine((m) => {
        const { [line.id]: _dropped, ...rest } = m;
        return before === undefined ? rest : { ...rest, [line.id]: before };
      });
    } else if (res.status === "done") void picking.refetch();
  };

  const scanned = (productId: number) => {
    const line =
      list.lines.find((l) => l.product_id === productId && dec(l.qty_picked).lessThan(dec(l.qty))) ??
      list.lines.find((l) => l.product_id === productId);
    if (!line) {
      toast.error("That product is not on this pick list");
      return;
    }
    if (!dec(line.qty_picked).lessThan(dec(line.qty))) {
      toast.error(`All ${qtyText(line.qty)} of ${line.description} are picked`);
      return;
    }
    void setPicked(line, dec(line.qty_picked).plus(1).toString());
  };

  const picked = list.lines.filter((l) => dec(l.qty_picked).greaterThan(0)).length;
  const short = list.lines.filter((l) => dec(l.qty_picked).lessThan(dec(l.qty)));

  const finish = async () => {
    setBusy(true);
    try {
      const res = await runOrQueue("pick_list_finish", { id: list.id }, { label: `Finish ${list.number}` });
      setConfirm(false);
      if (res.status === "refused") toast.error(res.message);
      else {
        toast.success(
          res.status === "done"
            ? "Picked — the delivery order draft is made"
            : "Saved on this phone — finished when the network is back",
        );
        navigate("/dashboard/pick");
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ pb: 2 }}>
      <Back />
      <PageHead title={list.number ?? "Pick list"} sub={list.company ?? undefined} />
      <OfflineNote isOffline={picking.isOffline} savedAt={picking.savedAt} what="the pick list" />
      {list.finishing && (
        <Alert severity="info" sx={{ mb: 1.5 }}>
          Finished on this phone — waiting to be sent.
        </Alert>
      )}
      <ScanField label="Scan what you pick" placeholder="Scan or search a product" onProduct={(p) => scanned(p.id)} />
      <Stack spacing={1} sx={{ mt: 1.5 }}>
        {list.lines.map((l) => {
          const done = !dec(l.qty_picked).lessThan(dec(l.qty));
          return (
            <Card
              key={l.id}
              variant="outlined"
              sx={{ p: 1.5, borderColor: done ? "success.main" : undefined }}
              data-testid={`pick-line-${l.line_no}`}
            >
              <Stack direction="row" spacing={1} sx={{ alignItems: "center", mb: 0.5 }}>
                <Chip size="small" label={l.bin ?? "No bin"} color={l.bin ? "primary" : "default"} />
                <Typography variant="body2" color="text.secondary" noWrap>
                  {where(l)}
                </Typography>
                {done && <CheckCircle color="success" fontSize="small" sx={{ ml: "auto" }} />}
              </Stack>
              <Typography sx={{ fontWeight: 600 }}>{l.description}</Typography>
              <Typography variant="body2" color="text.secondary">
                {l.sku ? `${l.sku} · ` : ""}pick {qtyText(l.qty)} {l.unit ?? ""}
              </Typography>
              <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between", mt: 1 }}>
                <Typography variant="body2">Picked</Typography>
                <QtyStepper
                  label={`Picked of ${l.description}`}
                  value={qtyText(l.qty_picked)}
                  onChange={(v) => void setPicked(l, v)}
                />
              </Stack>
            </Card>
          );
        })}
      </Stack>
      <Button
        fullWidth
        variant="contained"
        size="large"
        disabled={picked === 0 || list.finishing}
        onClick={() => setConfirm(true)}
        sx={{ mt: 2, minHeight: 56, fontSize: 18 }}
      >
        Finish picking
      </Button>
      <Dialog open={confirm} onClose={() => setConfirm(false)} fullWidth>
        <DialogTitle>Finish {list.number}?</DialogTitle>
        <DialogContent>
          <Typography>
            The delivery order draft is made with what you picked.
            {short.length > 0 &&
              ` ${short.length} line${short.length === 1 ? " is" : "s are"} not fully picked: what is missing stays to deliver later.`}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button size="large" onClick={() => setConfirm(false)}>
            Keep picking
          </Button>
          <Button size="large" variant="contained" disabled={busy} onClick={() => void finish()}>
            Finish
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

function Back() {
  return (
    <Button component={Link} to="/dashboard/pick" startIcon={<ArrowBack />} sx={{ mb: 1, minHeight: 44 }}>
      Pick lists
    </Button>
  );
}
