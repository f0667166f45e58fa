import PaymentsOutlined from "@mui/icons-material/PaymentsOutlined";
import Button from "@mui/material/Button";
import Tooltip from "@mui/material/Tooltip";
import { useQueryClient } from "@tanstack/react-query";
import { dec } from "@workmetrics/domain/documents/decimal";
import { releasedToPay } from "@workmetrics/domain/documents/three-way";
import { SUPPLIER_PAYMENT_ACCESS } from "@workmetrics/domain/resources/payables";
import { useState } from "react";
import toast from "react-hot-toast";
import { type Row, useDataProvider } from "../../platform/data-access/provider.ts";
import { useDecision } from "../../platform/resource/access.ts";
import { useRefreshDocuments } from "../documents/api.ts";
import { groupedAmount } from "../receivables/ageing.ts";
import { PayDialog } from "./PayDialog.tsx";
import { PAYMENTS_KEY } from "./RecentPayments.tsx";

// "Pay" on a supplier invoice's page: the Accounts payable pay dialog with this one invoice chosen. Offered on a
// submitted invoice that still owes something, to whoever may pay suppliers (SUPPLIER_PAYMENT_ACCESS.create, the
// same rule as Accounts payable); an invoice the three-way check holds shows the button disabled and says why
// (the server refuses it too: record_payment's supplier_payment kind).

const OWING = ["unpaid", "partly_paid", "overdue"];

export default function PayInvoiceButton({ doc, status }: { doc: Row; status: string }) {
  const may = useDecision(SUPPLIER_PAYMENT_ACCESS.create).allowed;
  const data = useDataProvider();
  const refresh = useRefreshDocuments();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const outstanding = String(doc.outstanding ?? "0");
  if (!may || !OWING.includes(status) || !dec(outstanding).greaterThan(0)) return null;
  const number = String(doc.number ?? "");
  const currency = String(doc.currency ?? "");
  const supplier = doc.company ? String((doc.company as Row).name) : "the supplier";
  if (!releasedToPay(doc.match_status as string | null)) {
    return (
      <Tooltip title="Held by the three-way check: a finance manager must release it to pay first">
        <span>
          <Button variant="contained" color="success" startIcon={<PaymentsOutlined />} disabled>
            Pay
          </Button>
        </span>
      </Tooltip>
    );
  }
  return (
    <>
      <Button variant="contained" color="success" startIcon={<PaymentsOutlined />} onClick={() => setOpen(true)}>
        Pay
      </Button>
      {open && (
        <PayDialog
          supplier={supplier}
          currency={currency}
          chosen={[{ id: Number(doc.id), number, outstanding }]}
          onCancel={() => setOpen(false)}
          onPay={async (p) => {
            const paid = await data.rpc<{ number: string }>("record_payment", {
              type: "supplier_payment",
              company_id: Number(doc.company_id),
              ...p,
            });
            toast.success(`${paid.number} recorded: ${currency} ${groupedAmount(p.amount)} to ${supplier}`);
            setOpen(false);
            await Promise.all([
              refresh(),
              qc.invalidateQueries({ queryKey: ["report"] }),
              qc.invalidateQueries({ queryKey: PAYMENTS_KEY }),
            ]);
          }}
        />
      )}
    </>
  );
}
