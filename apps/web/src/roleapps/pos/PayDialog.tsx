import CloseOutlined from "@mui/icons-material/CloseOutlined";
import CreditCardOutlined from "@mui/icons-material/CreditCardOutlined";
import LocalAtmOutlined from "@mui/icons-material/LocalAtmOutlined";
import QrCode2Outlined from "@mui/icons-material/QrCode2Outlined";
import RedeemOutlined from "@mui/icons-material/RedeemOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import type { PosPaymentMethod } from "@workmetrics/domain/db/pos-schema";
import { dec, money } from "@workmetrics/domain/documents/decimal";
import { type ReactNode, useState } from "react";
import { runOrQueue } from "../shell/outbox.ts";
import { keepReceipt, sgd, useCart } from "./data.ts";
import { quickTenders, settle, validAmount as valid } from "./pay.ts";

// Taking the money (issue 22): cash (what was tendered, and the change due), card, PayNow or a voucher, or split
// across several; the sale completes once the payments cover the total, and only cash gives change. The sale is
// kept in the outbox before it is sent, with the Idempotency-Key made at this tap.

export const METHODS: Array<{ method: PosPaymentMethod; label: string; icon: ReactNode }> = [
  { method: "cash", label: "Cash", icon: <LocalAtmOutlined /> },
  { method: "card", label: "Card", icon: <CreditCardOutlined /> },
  { method: "paynow", label: "PayNow", icon: <QrCode2Outlined /> },
  { method: "voucher", label: "Voucher", icon: <RedeemOutlined /> },
];
export const methodLabel = (m: string) => METHODS.find((x) => x.method === m)?.label ?? m;

type Payment = { id: number; method: PosPaymentMethod; amount: string };
let nextPayment = 1;

export function PayDialog({
  sessionId,
  onClose,
  onDone,
}: {
  sessionId: number | null;
  onClose(): void;
  onDone(key: string): void;
}) {
  const { cart, totals, clear } = useCart();
  const phone = useMediaQuery("(max-width:600px)");
  const [payments, setPayments] = useState<Payment[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const s = settle(totals.total, payments);

  function addPayment(method: PosPaymentMethod) {
    setPayments((ps) => [...ps, { id: nextPayment++, method, amount: settle(totals.total, ps).remaining }]);
  }

  async function complete() {
    setBusy(true);
    setError(null);
    const key = crypto.randomUUID();
    const draft = {
      lines: cart.lines,
      customer: cart.customer?.name ?? null,
      total: totals.total,
      gst: totals.gst,
      payments: payments.map((p) => ({ method: p.method, amount: money(p.amount) })),
      change: s.change,
      at: new Date().toISOString(),
    };
    keepReceipt({ key, order: null, draft });
    const res = await runOrQueue(
      "pos_sale",
      {
        session_id: sessionId,
        customer_id: cart.customer?.id ?? null,
        lines: cart.lines.map((l) => ({
          product_id: l.product_id,
          qty: String(l.qty),
          unit_price_incl_gst: l.unit_price_incl_gst,
          ...(l.discount_pct ? { discount_pct: String(l.discount_pct) } : {}),
        })),
        payments: payments.map((p) => ({ method: p.method, amount: money(p.amount) })),
      },
      { label: `Sale of ${totals.items} item${totals.items === 1 ? "" : "s"}, ${sgd(totals.total)}`, key },
    );
    setBusy(false);
    if (res.status === "refused") {
      setError(res.message);
      return;
    }
    if (res.status === "done") keepReceipt({ key, order: res.result, draft });
    clear();
    onDone(key);
  }

  return (
    <Dialog open onClose={busy ? undefined : onClose} fullScreen={phone} fullWidth maxWidth="sm">
      <DialogTitle sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <Box sx={{ flex: 1 }}>Pay {sgd(totals.total)}</Box>
        <IconButton aria-label="Back to the cart" onClick={onClose} disabled={busy}>
          <CloseOutlined />
        </IconButton>
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography color="text.secondary">GST included: {sgd(totals.gst)}</Typography>
          <Box sx={{ display: "grid", gap: 1, gridTemplateColumns: "repeat(2, 1fr)" }}>
            {METHODS.map((m) => (
              <Button
                key={m.method}
                variant="outlined"
                size="large"
                startIcon={m.icon}
                onClick={() => addPayment(m.method)}
                disabled={s.covered && payments.length > 0}
                sx={{ minHeight: 56 }}
              >
                {m.label}
              </Button>
            ))}
          </Box>
          {payments.map((p, i) => (
            <Stack key={p.id} spacing={1}>
              <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                <TextField
                  label={p.method === "cash" ? "Cash tendered (S$)" : `${methodLabel(p.method)} (S$)`}
                  value={p.amount}
                  onChange={(e) =>
                    setPayments((ps) => ps.map((x, j) => (j === i ? { ...x, amount: e.target.value } : x)))
                  }
                  slotProps={{ htmlInput: { inputMode: "decimal" } }}
                  error={!valid(p.amount)}
                  helperText={valid(p.amount) ? " " : "Give an amount like 12.50"}
                  fullWidth
                />
                <IconButton
                  aria-label={`Remove the ${methodLabel(p.method)} payment`}
                  onClick={() => setPayments((ps) => ps.filter((_x, j) => j !== i))}
                  sx={{ mb: 2.5 }}
                >
                  <CloseOutlined />
                </IconButton>
              </Stack>
              {p.method === "cash" && (
                <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: "wrap" }}>
                  {quickTenders(
                    money(
                      dec(
                        settle(
                          totals.total,
                          payments.filter((_x, j) => j !== i),
                        ).remaining,
                      ).toString(),
                    ),
                  ).map((v) => (
                    <Chip
                      key={v}
                      label={sgd(v)}
                      onClick={() => setPayments((ps) => ps.map((x, j) => (j === i ? { ...x, amount: v } : x)))}
                    />
                  ))}
                </Stack>
              )}
            </Stack>
          ))}
          <Box sx={{ p: 2, borderRadius: 2, bgcolor: "action.hover" }} role="status" aria-live="polite">
            {!s.covered ? (
              <Typography variant="h6">Still due: {sgd(s.remaining)}</Typography>
            ) : (
              <Typography variant="h6" color={dec(s.change).isZero() ? undefined : "success.main"}>
                {dec(s.change).isZero() ? "Paid in full" : `Change due: ${sgd(s.change)}`}
              </Typography>
            )}
          </Box>
          {s.covered && !s.changeOk && (
            <Alert severity="warning">Only cash gives change: lower the card, PayNow or voucher amount.</Alert>
          )}
          {error && <Alert severity="error">{error}</Alert>}
          <Button
            variant="contained"
            size="large"
            onClick={complete}
            disabled={busy || payments.length === 0 || !s.covered || !s.changeOk || !s.allValid}
            sx={{ minHeight: 56, fontSize: 18, fontWeight: 700 }}
          >
            {busy ? "Completing…" : "Complete sale"}
          </Button>
        </Stack>
      </DialogContent>
    </Dialog>
  );
}
