import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { dec } from "@workmetrics/domain/documents/decimal";
import { formatMoney } from "@workmetrics/domain/money";
import { useState } from "react";
import { DateField } from "../../platform/fields/DateField.tsx";

// The document page's dialogs: the reason an action needs, a payment against an invoice, an e-mail of the document.
// Each keeps its button busy while the command runs and shows the server's refusal in place.

type Run = () => Promise<void>;

function Busy({ label, onRun, disabled, color }: { label: string; onRun: Run; disabled?: boolean; color?: "error" }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="contained"
      type="submit"
      color={color ?? "primary"}
      loading={busy}
      disabled={disabled}
      onClick={async (e) => {
        e.preventDefault();
        setBusy(true);
        try {
          await onRun();
        } finally {
          setBusy(false);
        }
      }}
    >
      {label}
    </Button>
  );
}

export function ReasonDialog(props: {
  open: boolean;
  title: string;
  prompt: string;
  confirmLabel: string;
  dismissLabel?: string; // default "Back"
  destructive?: boolean;
  onCancel(): void;
  onConfirm(reason: string): Promise<void>;
}) {
  const [reason, setReason] = useState("");
  return (
    <Dialog open={props.open} onClose={props.onCancel} fullWidth maxWidth="sm" aria-labelledby="reason-title">
      <form>
        <DialogTitle id="reason-title">{props.title}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{props.prompt}</DialogContentText>
          <TextField
            autoFocus
            fullWidth
            multiline
            minRows={2}
            label="Reason"
            required
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onCancel}>{props.dismissLabel ?? "Back"}</Button>
          <Busy
            label={props.confirmLabel}
            color={props.destructive ? "error" : undefined}
            disabled={!reason.trim()}
            onRun={() => props.onConfirm(reason.trim())}
          />
        </DialogActions>
      </form>
    </Dialog>
  );
}

export const PAYMENT_METHODS = ["bank_transfer", "paynow", "cheque", "card", "cash"] as const;
export const METHOD_LABEL: Record<string, string> = {
  bank_transfer: "Bank transfer",
  paynow: "PayNow",
  cheque: "Cheque",
  card: "Card",
  cash: "Cash",
};

export type PaymentInput = { amount: string; date: string; method: string; reference: string };

export function PaymentDialog(props: {
  open: boolean;
  number: string;
  outstanding: string;
  currency: string;
  today: string;
  onCancel(): void;
  onConfirm(p: PaymentInput): Promise<void>;
}) {
  const [p, setP] = useState<PaymentInput>({
    amount: props.outstanding,
    date: props.today,
    method: "bank_transfer",
    reference: "",
  });
  let problem: string | null = null;
  try {
    const a = dec(p.amount || "0", "The amount");
    if (!a.greaterThan(0)) problem = "The amount must be more than 0";
    else if (a.greaterThan(dec(props.outstanding))) {
      problem = `Only ${formatMoney(props.outstanding, props.currency)} is outstanding on ${props.number}`;
    }
  } catch {
    problem = "The amount must be a number";
  }
  return (
    <Dialog open={props.open} onClose={props.onCancel} fullWidth maxWidth="xs" aria-labelledby="payment-title">
      <form>
        <DialogTitle id="payment-title">Record a payment on {props.number}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              autoFocus
              label={`Amount (${props.currency})`}
              value={p.amount}
              onChange={(e) => setP({ ...p, amount: e.target.value })}
              error={Boolean(problem) && p.amount !== ""}
              helperText={problem ?? `Outstanding: ${formatMoney(props.outstanding, props.currency)}`}
              slotProps={{ htmlInput: { inputMode: "decimal" } }}
            />
            <DateField label="Date" value={p.date} onChange={(v) => setP({ ...p, date: v })} />
            <TextField select label="Method" value={p.method} onChange={(e) => setP({ ...p, method: e.target.value })}>
              {PAYMENT_METHODS.map((m) => (
                <MenuItem key={m} value={m}>
                  {METHOD_LABEL[m]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label="Reference"
              placeholder="Bank reference, cheque number…"
              value={p.reference}
              onChange={(e) => setP({ ...p, reference: e.target.value })}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onCancel}>Cancel</Button>
          <Busy label="Record payment" disabled={problem !== null} onRun={() => props.onConfirm(p)} />
        </DialogActions>
      </form>
    </Dialog>
  );
}

export function EmailDialog(props: {
  open: boolean;
  title: string;
  recipient?: string; // who gets it when To is left empty: "the document's contact" by default
  // Issue 21 §2: a member who may not e-mail any address (outside_email.create: the POS, the warehouse) sends only to
  // the customer's own addresses — no free "To" is offered that the server would refuse.
  anyAddress?: boolean;
  onCancel(): void;
  onConfirm(v: { to: string; message: string }): Promise<void>;
}) {
  const recipient = props.recipient ?? "the document's contact";
  const [to, setTo] = useState("");
  const [message, setMessage] = useState("");
  return (
    <Dialog open={props.open} onClose={props.onCancel} fullWidth maxWidth="sm" aria-labelledby="email-title">
      <form>
        <DialogTitle id="email-title">E-mail {props.title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {props.anyAddress === false ? (
              <Typography color="text.secondary" data-testid="email-recipient">
                The PDF goes to {recipient}, with your message. Only someone who may e-mail any address can send it
                elsewhere.
              </Typography>
            ) : (
              <TextField
                autoFocus
                type="email"
                label="To"
                placeholder={`${recipient.replace(/^./, (c) => c.toUpperCase())} when left empty`}
                value={to}
                onChange={(e) => setTo(e.target.value)}
                helperText={`The PDF is attached. Leave empty to send it to ${recipient}.`}
              />
            )}
            <TextField
              label="Message"
              multiline
              minRows={3}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onCancel}>Cancel</Button>
          <Busy label="Send" onRun={() => props.onConfirm({ to: to.trim(), message: message.trim() })} />
        </DialogActions>
      </form>
    </Dialog>
  );
}
