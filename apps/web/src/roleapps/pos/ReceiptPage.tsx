import AddShoppingCartOutlined from "@mui/icons-material/AddShoppingCartOutlined";
import EmailOutlined from "@mui/icons-material/EmailOutlined";
import PrintOutlined from "@mui/icons-material/PrintOutlined";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useEffect, useMemo, useState } from "react";
import toast from "react-hot-toast";
import { Link, useParams } from "react-router";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { onReplayed, runOrQueue, useOutbox } from "../shell/outbox.ts";
import { lineTotal, type PosOrderView, readReceipts, type ShownReceipt } from "./data.ts";
import { PrintStyles, Receipt, type ReceiptData } from "./Receipt.tsx";

// The receipt right after a sale (issue 22): print it on the counter's 80 mm printer, e-mail it, or show its QR
// code to the customer. A sale still in the outbox shows its receipt without a number until it is sent.

export function receiptOf(order: PosOrderView): ReceiptData {
  return {
    title: `${order.kind === "refund" ? "Refund" : "Receipt"} ${order.number}`,
    shop: order.workspace_name,
    counter: order.location_name,
    at: String(order.created_at),
    customer: order.customer_name,
    lines: order.lines,
    discount: order.discount_total,
    total: order.total,
    gst: order.tax_total,
    payments: order.payments.map((p) => ({ method: p.method, amount: p.method === "cash" ? p.tendered : p.amount })),
    change: order.change_given,
    token: order.receipt_token,
  };
}

function draftReceipt(r: ShownReceipt, shop: string | null): ReceiptData {
  return {
    title: "Receipt (waiting to send)",
    shop,
    counter: null,
    at: r.draft.at,
    customer: r.draft.customer,
    lines: r.draft.lines.map((l) => ({
      description: l.name,
      qty: String(l.qty),
      unit_price: l.unit_price_incl_gst,
      discount_percent: String(l.discount_pct),
      line_total: lineTotal(l).toFixed(2),
    })),
    discount: null,
    total: r.draft.total,
    gst: r.draft.gst,
    payments: r.draft.payments,
    change: r.draft.change,
    token: null,
  };
}

export function ReceiptPage() {
  const { key = "" } = useParams();
  const { dbUser } = useSession();
  const { pending, conflicts } = useOutbox();
  // Read again whenever the outbox changes or replays: a replayed sale's receipt gets its number.
  const [replays, setReplays] = useState(0);
  useEffect(() => onReplayed(() => setReplays((n) => n + 1)), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the outbox's state is the signal to read again
  const shown = useMemo(() => readReceipts().find((r) => r.key === key) ?? null, [key, pending, conflicts, replays]);
  const [emailing, setEmailing] = useState(false);
  const conflict = conflicts.find((c) => c.key === key);
  if (!shown) {
    return (
      <Stack spacing={2} sx={{ maxWidth: 420, mx: "auto" }}>
        <Alert severity="info">This receipt is not on this device any more. Find the sale under Orders.</Alert>
        <Button component={Link} to="/dashboard/orders" variant="outlined">
          Orders
        </Button>
      </Stack>
    );
  }
  const shop = dbUser?.profile?.workspace?.name ?? null;
  const data = shown.order ? receiptOf(shown.order) : draftReceipt(shown, shop);
  return (
    <Stack spacing={2} sx={{ maxWidth: 420, mx: "auto" }}>
      <PrintStyles />
      <Typography variant="h5" component="h2" sx={{ fontWeight: 700 }}>
        {shown.order ? "Sale complete" : "Sale saved on this device"}
      </Typography>
      {!shown.order && !conflict && (
        <Alert severity="info">
          The network is down: the sale is kept and will be sent once, as soon as the connection is back.
        </Alert>
      )}
      {conflict && <Alert severity="error">The server refused this sale: {conflict.conflict?.message}</Alert>}
      <Receipt r={data} />
      <Stack direction="row" spacing={1}>
        <Button
          variant="outlined"
          startIcon={<PrintOutlined />}
          onClick={() => window.print()}
          sx={{ flex: 1, minHeight: 48 }}
        >
          Print
        </Button>
        <Button
          variant="outlined"
          startIcon={<EmailOutlined />}
          onClick={() => setEmailing(true)}
          disabled={!shown.order}
          sx={{ flex: 1, minHeight: 48 }}
        >
          E-mail
        </Button>
      </Stack>
      <Button
        variant="contained"
        size="large"
        component={Link}
        to="/dashboard"
        startIcon={<AddShoppingCartOutlined />}
        sx={{ minHeight: 56 }}
      >
        New sale
      </Button>
      {emailing && shown.order && <EmailDialog order={shown.order} onClose={() => setEmailing(false)} />}
    </Stack>
  );
}

export function EmailDialog({ order, onClose }: { order: PosOrderView; onClose(): void }) {
  const [to, setTo] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ok = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(to.trim());
  async function send() {
    setBusy(true);
    const res = await runOrQueue(
      "pos_receipt_email",
      { order_id: Number(order.id), to: to.trim() },
      { label: `E-mail ${order.number} to ${to.trim()}` },
    );
    setBusy(false);
    if (res.status === "refused") return setError(res.message);
    toast.success(
      res.status === "done" ? `${order.number} is on its way to ${to.trim()}` : "Queued: it goes out once online",
    );
    onClose();
  }
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>E-mail the receipt</DialogTitle>
      <DialogContent>
        <TextField
          label="Customer's e-mail"
          type="email"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          fullWidth
          autoFocus
          sx={{ mt: 1 }}
          error={to !== "" && !ok}
          helperText={to !== "" && !ok ? "Give an address like name@example.com" : " "}
        />
        {error && <Alert severity="error">{error}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" disabled={!ok || busy} onClick={send}>
          Send
        </Button>
      </DialogActions>
    </Dialog>
  );
}
