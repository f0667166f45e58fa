import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { errorMessage } from "@workmetrics/domain";
import { dec } from "@workmetrics/domain/documents/decimal";
import { useState } from "react";
import { groupedAmount, todayIso } from "../receivables/ageing.ts";
import { AllocationTable } from "./AllocationTable.tsx";
import { type Allocation, allocatedTotal, fill, type Payable, paymentProblem, toAllocations } from "./pay.ts";
import { useReport } from "./useReport.ts";

// A supplier's credit (what a payment left unallocated) used on their open invoices: allocate_credit
// {type: "supplier_payment"}. The invoices the three-way check holds are left out; the credit fills the oldest first.
export function CreditDialog(props: {
  payment: { id: number; number: string; unallocated: string; companyId: number; supplier: string };
  onCancel(): void;
  onUse(allocations: ReturnType<typeof toAllocations>): Promise<void>;
}) {
  const { payment } = props;
  const open = useReport({ name: "ap_ageing", as_of: todayIso(), company_id: payment.companyId });
  const payable: Payable[] = (open.data?.rows ?? [])
    .filter((r) => r.match_status !== "exception")
    .map((r) => ({ id: Number(r.id), number: String(r.number), outstanding: String(r.total) }));
  const [typed, setTyped] = useState<Allocation[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const allocations = typed ?? fill(payable, payment.unallocated);
  const problem =
    paymentProblem(payment.unallocated, payable, allocations) ??
    (dec(allocatedTotal(allocations)).isZero() ? "Put some of the credit on an invoice" : null);
  const use = async () => {
    setBusy(true);
    setFailed(null);
    try {
      await props.onUse(toAllocations(allocations));
    } catch (err) {
      setFailed(errorMessage(err, "The credit could not be used"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={props.onCancel} fullWidth maxWidth="sm" aria-labelledby="credit-title">
      <DialogTitle id="credit-title">
        Use {groupedAmount(payment.unallocated)} of {payment.supplier}'s credit
      </DialogTitle>
      <DialogContent>
        {open.isPending ? (
          <Skeleton height={96} />
        ) : !payable.length ? (
          <Alert severity="info">{payment.supplier} has no open invoice released to pay.</Alert>
        ) : (
          <AllocationTable
            label="Invoices the credit pays"
            verb="Use"
            header="Use"
            payable={payable}
            allocations={allocations}
            onChange={(id, amount) => setTyped(allocations.map((a) => (a.id === id ? { ...a, amount } : a)))}
          />
        )}
        {payable.length > 0 && problem && (
          <Typography color="error" sx={{ mt: 1 }}>
            {problem}
          </Typography>
        )}
        {failed && (
          <Typography color="error" role="alert" sx={{ mt: 1 }}>
            {failed}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button variant="contained" disabled={!payable.length || problem !== null || busy} onClick={use}>
          {busy ? "Using…" : "Use credit"}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
