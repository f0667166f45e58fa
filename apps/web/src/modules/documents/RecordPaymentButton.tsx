import PaymentsOutlined from "@mui/icons-material/PaymentsOutlined";
import Button from "@mui/material/Button";
import { useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "@workmetrics/domain";
import { formatMoney } from "@workmetrics/domain/money";
import { useState } from "react";
import toast from "react-hot-toast";
import { type Row, useDataProvider } from "../../platform/data-access/provider.ts";
import { useDecision } from "../../platform/resource/access.ts";
import { useRefreshDocuments } from "./api.ts";
import { PaymentDialog } from "./DocumentDialogs.tsx";
import { paymentOffer, RECEIPT_ACCESS } from "./payments.ts";

// "Record payment" on the page of a document a customer still owes on (payments.ts says which types and statuses):
// the payment dialog prefilled with the outstanding, then one record_payment allocated wholly to this document.
// Offered only to a member who may record receipts.

const todayIso = () => new Date().toISOString().slice(0, 10);

export function RecordPaymentButton({ type, doc, currency }: { type: string; doc: Row; currency: string }) {
  const data = useDataProvider();
  const qc = useQueryClient();
  const refresh = useRefreshDocuments();
  const [open, setOpen] = useState(false);
  const mayRecord = useDecision(RECEIPT_ACCESS).allowed;
  const offer = paymentOffer(type, String(doc.status), doc.outstanding);
  if (!offer || !mayRecord) return null;
  const number = String(doc.number);
  return (
    <>
      <Button variant="contained" color="success" startIcon={<PaymentsOutlined />} onClick={() => setOpen(true)}>
        Record payment
      </Button>
      {open && (
        <PaymentDialog
          open
          number={number}
          outstanding={String(doc.outstanding)}
          currency={currency}
          today={todayIso()}
          onCancel={() => setOpen(false)}
          onConfirm={async (p) => {
            try {
              const paid = await data.command("record_payment", {
                type: offer.payment,
                company_id: Number(doc.company_id),
                amount: p.amount,
                date: p.date,
                method: p.method,
                reference: p.reference || null,
                allocations: [{ document_type: type, document_id: Number(doc.id), amount: p.amount }],
              });
              toast.success(`${paid.number} recorded: ${formatMoney(p.amount, currency)} on ${number}`);
              await Promise.all([refresh(), qc.invalidateQueries({ queryKey: ["report"] })]);
              setOpen(false);
            } catch (err) {
              toast.error(errorMessage(err, "The payment could not be recorded"));
            }
          }}
        />
      )}
    </>
  );
}
