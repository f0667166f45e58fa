import ArrowBackOutlined from "@mui/icons-material/ArrowBackOutlined";
import PrintOutlined from "@mui/icons-material/PrintOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import type { PosPaymentMethod } from "@workmetrics/domain/db/pos-schema";
import { dec, money } from "@workmetrics/domain/documents/decimal";
import { useState } from "react";
import toast from "react-hot-toast";
import { Link, useParams } from "react-router";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { toDataError } from "../../platform/data-access/errors.ts";
import { useShiftData } from "../shell/offline-cache.ts";
import { runOrQueue, useOutbox } from "../shell/outbox.ts";
import { ORDER_SELECT, type OrderRow, qtyText, sgd, useOpenSession, useSessionOrders } from "./data.ts";
import { METHODS, methodLabel } from "./PayDialog.tsx";

// One order (issue 22): its lines and payments, the receipt to print again, and a refund of the whole sale or some
// of its lines — never more of a line than was sold less what was refunded already (the server says so too), the
// money going back by the method chosen, from the cashier's open session.
export function OrderPage() {
  const { id = "" } = useParams();
  const { client } = useSession();
  const qc = useQueryClient();
  const session = useOpenSession();
  const { pending } = useOutbox();
  // Kept on the device like the shift's other data, and found among the session's cached orders when this one was
  // never opened here: a refund can be queued with the network gone.
  const recent = useSessionOrders(session.open?.id ?? null);
  const order = useShiftData(["pos-order", id], async () => {
    if (!client) throw new Error("Not signed in");
    const res = await client.from("pos_order").select(`${ORDER_SELECT},refund_of`).eq("id", Number(id)).maybeSingle();
    if (res.error) throw toDataError(res.error, res.status);
    return res.data as (OrderRow & { refund_of: number | null }) | null;
  });
  const fromList = recent.data?.find((x) => Number(x.id) === Number(id));
  const [qty, setQty] = useState<Record<number, number>>({});
  const [method, setMethod] = useState<PosPaymentMethod>("cash");
  const [confirm, setConfirm] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (order.isPending && !fromList) {
    return (
      <Box sx={{ display: "grid", placeItems: "center", py: 6 }} role="status" aria-label="Loading">
        <CircularProgress />
      </Box>
    );
  }
  const o = order.data ?? (fromList ? { ...fromList, refund_of: null } : null);
  if (order.error && !o) return <Alert severity="error">{(order.error as Error).message}</Alert>;
  if (!o) return <Alert severity="warning">There is no such order in this workspace.</Alert>;

  const queuedFor = pending.filter(
    (e) => e.name === "pos_refund" && Number((e.args as { order_id?: unknown }).order_id) === Number(o.id),
  );
  const queuedQty = (lineId: number) =>
    queuedFor.reduce((n, e) => {
      const l = (e.args as { lines: Array<{ source_line_id: number; qty: string }> }).lines.find(
        (x) => x.source_line_id === lineId,
      );
      return n + (l ? Number(l.qty) : 0);
    }, 0);
  const left = (l: OrderRow["lines"][number]) =>
    Math.max(0, Number(l.qty) - Number(l.qty_refunded) - queuedQty(Number(l.id)));
  const chosen = o.lines.filter((l) => (qty[Number(l.id)] ?? 0) > 0);
  const refundTotal = chosen.reduce((n, l) => {
    const q = qty[Number(l.id)] ?? 0;
    return n.plus(dec(money(dec(l.line_total).mul(q).div(dec(l.qty)))));
  }, dec("0"));
  const canRefund = o.kind === "sale" && o.lines.some((l) => left(l) > 0);

  async function refund() {
    if (!o) return;
    setBusy(true);
    setError(null);
    const res = await runOrQueue(
      "pos_refund",
      {
        order_id: Number(o.id),
        method,
        lines: chosen.map((l) => ({ source_line_id: Number(l.id), qty: String(qty[Number(l.id)]) })),
      },
      { label: `Refund of ${sgd(money(refundTotal))} on ${o.number}` },
    );
    setBusy(false);
    setConfirm(false);
    if (res.status === "refused") return setError(res.message);
    setQty({});
    toast.success(
      res.status === "done"
        ? `Refunded ${sgd(money(refundTotal))} (${res.result.number})`
        : "Refund kept: it is sent once online",
    );
    void qc.invalidateQueries({ queryKey: ["shift", "pos-order", id] });
    void qc.invalidateQueries({ queryKey: ["shift", "pos-orders"] });
  }

  return (
    <Stack spacing={2} sx={{ maxWidth: 640, mx: "auto" }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
        <Button component={Link} to="/dashboard/orders" startIcon={<ArrowBackOutlined />} sx={{ minHeight: 44 }}>
          Orders
        </Button>
        <Box sx={{ flex: 1 }} />
        <Button
          component="a"
          href={`/api/documents/pos_order/${o.id}/pdf`}
          target="_blank"
          rel="noopener"
          startIcon={<PrintOutlined />}
          sx={{ minHeight: 44 }}
        >
          Receipt PDF
        </Button>
      </Stack>
      <div>
        <Typography variant="h5" component="h2" sx={{ fontWeight: 700 }}>
          {o.kind === "refund" ? "Refund" : "Sale"} {o.number}
        </Typography>
        <Typography color="text.secondary">
          {new Date(o.created_at).toLocaleString()} · {o.company?.name ?? "Walk-in"} · Total {sgd(o.total)} (GST{" "}
          {sgd(o.tax_total)} included)
        </Typography>
      </div>
      <Paper variant="outlined" sx={{ p: 1 }}>
        <Stack spacing={1} role="list" aria-label="Lines">
          {o.lines.map((l) => {
            const lid = Number(l.id);
            const max = left(l);
            const q = qty[lid] ?? 0;
            return (
              <Stack key={lid} direction="row" spacing={1} role="listitem" sx={{ alignItems: "center" }}>
                {canRefund && (
                  <Checkbox
                    checked={q > 0}
                    disabled={max === 0}
                    onChange={(e) => setQty({ ...qty, [lid]: e.target.checked ? max : 0 })}
                    slotProps={{ input: { "aria-label": `Refund ${l.description}` } }}
                  />
                )}
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography noWrap sx={{ fontWeight: 600 }}>
                    {l.description}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {qtyText(l.qty)} × {sgd(l.unit_price)}
                    {dec(l.discount_percent).isZero() ? "" : ` −${l.discount_percent}%`}
                    {Number(l.qty_refunded) > 0 ? ` · ${qtyText(l.qty_refunded)} refunded` : ""}
                  </Typography>
                </Box>
                {canRefund && q > 0 && max > 1 && (
                  <TextField
                    select
                    size="small"
                    label="Qty"
                    value={q}
                    onChange={(e) => setQty({ ...qty, [lid]: Number(e.target.value) })}
                    sx={{ width: 80 }}
                  >
                    {Array.from({ length: max }, (_x, i) => i + 1).map((n) => (
                      <MenuItem key={n} value={n}>
                        {n}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
                <Typography sx={{ fontWeight: 600 }}>{sgd(l.line_total)}</Typography>
              </Stack>
            );
          })}
        </Stack>
      </Paper>
      <Typography variant="body2" color="text.secondary">
        Paid by{" "}
        {o.payments
          .map(
            (p) => `${methodLabel(p.method)} ${sgd(p.method === "cash" && o.kind === "sale" ? p.tendered : p.amount)}`,
          )
          .join(", ")}
        {o.payments.some((p) => Number(p.change_given) > 0)
          ? ` · change ${sgd(o.payments.reduce((n, p) => n + Number(p.change_given), 0).toFixed(2))}`
          : ""}
      </Typography>
      {queuedFor.length > 0 && <Alert severity="warning">A refund of this sale is waiting to be sent.</Alert>}
      {error && <Alert severity="error">{error}</Alert>}
      {canRefund ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Stack spacing={2}>
            <Typography sx={{ fontWeight: 700 }}>Refund</Typography>
            {!session.open && !session.queuedOpen && (
              <Alert severity="info">Open a session first: the refund's money leaves its drawer.</Alert>
            )}
            <TextField
              select
              label="Refund by"
              value={method}
              onChange={(e) => setMethod(e.target.value as PosPaymentMethod)}
            >
              {METHODS.map((m) => (
                <MenuItem key={m.method} value={m.method}>
                  {m.label}
                </MenuItem>
              ))}
            </TextField>
            <Stack direction="row" spacing={1}>
              <Button
                variant="outlined"
                onClick={() => setQty(Object.fromEntries(o.lines.map((l) => [Number(l.id), left(l)])))}
                sx={{ minHeight: 48 }}
              >
                Whole sale
              </Button>
              <Button
                variant="contained"
                color="secondary"
                disabled={chosen.length === 0 || busy || (!session.open && !session.queuedOpen)}
                onClick={() => setConfirm(true)}
                sx={{ flex: 1, minHeight: 48 }}
              >
                Refund {sgd(money(refundTotal))}
              </Button>
            </Stack>
          </Stack>
        </Paper>
      ) : o.kind === "sale" ? (
        <Alert severity="info">Everything on this sale has been refunded.</Alert>
      ) : null}
      <Dialog open={confirm} onClose={() => setConfirm(false)}>
        <DialogTitle>Refund {sgd(money(refundTotal))}?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {chosen.map((l) => `${qty[Number(l.id)]} × ${l.description}`).join(", ")} back into stock, and{" "}
            {sgd(money(refundTotal))} paid back by {methodLabel(method)}. This cannot be undone.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirm(false)}>Cancel</Button>
          <Button variant="contained" color="secondary" onClick={refund} disabled={busy}>
            Refund
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
