import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "@workmetrics/domain";
import { useState } from "react";
import toast from "react-hot-toast";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { DateField } from "../../platform/fields/DateField.tsx";
import { METHOD_LABEL, PAYMENT_METHODS } from "../documents/DocumentDialogs.tsx";
import { groupedAmount, todayIso } from "../receivables/ageing.ts";
import { AllocationTable } from "./AllocationTable.tsx";
import {
  type Allocation,
  allocatedTotal,
  defaultAllocations,
  type Payable,
  paymentProblem,
  toAllocations,
} from "./pay.ts";
import { PAYMENTS_KEY } from "./RecentPayments.tsx";

export type PaymentRequest = {
  amount: string;
  date: string;
  method: string;
  reference: string | null;
  allocations: ReturnType<typeof toAllocations>;
};

// The dialog's onPay wherever it opens (Accounts payable, a supplier invoice's page): records the payment, says so,
// closes (`done`, which may bring its own refresh) and reads again what the payment changed — the reports and the
// recent payments.
export function usePaySupplier() {
  const data = useDataProvider();
  const qc = useQueryClient();
  return async (
    to: { companyId: number; supplier: string; currency: string },
    p: PaymentRequest,
    done: () => unknown,
  ): Promise<void> => {
    const paid = await data.command("record_payment", {
      type: "supplier_payment",
      company_id: to.companyId,
      ...p,
    });
    toast.success(`${paid.number} recorded: ${to.currency} ${groupedAmount(p.amount)} to ${to.supplier}`);
    await Promise.all([
      done(),
      qc.invalidateQueries({ queryKey: ["report"] }),
      qc.invalidateQueries({ queryKey: PAYMENTS_KEY }),
    ]);
  };
}

// Pay a supplier for the invoices chosen on Accounts payable: each pays what it owes unless changed; paying more
// than the invoices leaves the rest as the supplier's credit (record_payment type supplier_payment).
export function PayDialog(props: {
  supplier: string;
  currency: string;
  chosen: Payable[];
  onCancel(): void;
  onPay(p: PaymentRequest): Promise<void>;
}) {
  const { supplier, currency, chosen } = props;
  const [allocations, setAllocations] = useState<Allocation[]>(() => defaultAllocations(chosen));
  const [amount, setAmount] = useState(() => allocatedTotal(defaultAllocations(chosen)));
  const [date, setDate] = useState(todayIso());
  const [method, setMethod] = useState("bank_transfer");
  const [reference, setReference] = useState("");
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const problem = paymentProblem(amount, chosen, allocations);
  const setOne = (id: number, value: string) => {
    const next = allocations.map((a) => (a.id === id ? { ...a, amount: value } : a));
    setAllocations(next);
    // The amount follows the invoices while the clerk has not typed a different one.
    if (amount === allocatedTotal(allocations)) setAmount(allocatedTotal(next));
  };
  const pay = async () => {
    setBusy(true);
    setFailed(null);
    try {
      await props.onPay({
        amount,
        date,
        method,
        reference: reference.trim() || null,
        allocations: toAllocations(allocations),
      });
    } catch (err) {
      setFailed(errorMessage(err, "The payment could not be recorded"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={props.onCancel} fullWidth maxWidth="sm" aria-labelledby="pay-title">
      <DialogTitle id="pay-title">Pay {supplier}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <AllocationTable
            label="Invoices to pay"
            verb="Pay"
            header={`Pay (${currency})`}
            payable={chosen}
            allocations={allocations}
            onChange={setOne}
          />
          <TextField
            label={`Amount paid (${currency})`}
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            error={problem !== null}
            helperText={
              problem ??
              (amount !== allocatedTotal(allocations)
                ? "What the invoices do not take stays as the supplier's credit"
                : "Paid in full on the invoices above")
            }
            slotProps={{ htmlInput: { inputMode: "decimal" } }}
          />
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            <DateField label="Date" value={date} onChange={setDate} />
            <TextField select label="Method" value={method} onChange={(e) => setMethod(e.target.value)} fullWidth>
              {PAYMENT_METHODS.map((m) => (
                <MenuItem key={m} value={m}>
                  {METHOD_LABEL[m]}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <TextField
            label="Reference"
            placeholder="Bank reference, cheque number…"
            value={reference}
            onChange={(e) => setReference(e.target.value)}
          />
          {failed && (
            <Typography color="error" role="alert">
              {failed}
            </Typography>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button variant="contained" disabled={problem !== null || busy} onClick={pay}>
          {busy ? "Paying…" : "Record payment"}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
