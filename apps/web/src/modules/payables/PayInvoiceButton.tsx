import PaymentsOutlined from "@mui/icons-material/PaymentsOutlined";
import Button from "@mui/material/Button";
import Tooltip from "@mui/material/Tooltip";
import { dec } from "@workmetrics/domain/documents/decimal";
import { releasedToPay } from "@workmetrics/domain/documents/three-way";
import { SUPPLIER_PAYMENT_ACCESS } from "@workmetrics/domain/resources/payables";
import { useState } from "react";
import type { Row } from "../../platform/data-access/provider.ts";
import { useDecision } from "../../platform/resource/access.ts";
import { useRefreshDocuments } from "../documents/api.ts";
import { PayDialog, usePaySupplier } from "./PayDialog.tsx";

// "Pay" on a supplier invoice's page: the Accounts payable pay dialog with this one invoice chosen. Offered on a
// submitted invoice that still owes something, to whoever may pay suppliers (SUPPLIER_PAYMENT_ACCESS.create, the
// same rule as Accounts payable); an invoice the three-way check holds shows the button disabled and says why
// (the server refuses it too: record_payment's supplier_payment kind).

const OWING = ["unpaid", "partly_paid", "overdue"];

export default function PayInvoiceButton({ doc, status }: { doc: Row; status: string }) {
  const may = useDecision(SUPPLIER_PAYMENT_ACCESS.create).allowed;
  const pay = usePaySupplier();
  const refresh = useRefreshDocuments();
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
          onPay={(p) =>
            pay({ companyId: Number(doc.company_id), supplier, currency }, p, () => {
              setOpen(false);
              return refresh();
            })
          }
        />
      )}
    </>
  );
}
