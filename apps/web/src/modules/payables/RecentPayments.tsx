import EmailOutlined from "@mui/icons-material/EmailOutlined";
import PictureAsPdfOutlined from "@mui/icons-material/PictureAsPdfOutlined";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Skeleton from "@mui/material/Skeleton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "@workmetrics/domain";
import { SUPPLIER_PAYMENT_ACCESS } from "@workmetrics/domain/resources/payables";
import { useState } from "react";
import toast from "react-hot-toast";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { formatDate } from "../../platform/fields/format.ts";
import { useDecision } from "../../platform/resource/access.ts";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { EmailDialog, METHOD_LABEL, ReasonDialog } from "../documents/DocumentDialogs.tsx";
import { groupedAmount } from "../receivables/ageing.ts";
import { CreditDialog } from "./CreditDialog.tsx";

export const PAYMENTS_KEY = ["supplier-payments", "recent"];

type Payment = {
  id: number;
  number: string;
  status: string;
  doc_date: string;
  company_id: number;
  amount: string;
  unallocated: string;
  method: string;
  reference: string | null;
  company: { name: string } | null;
};

// The latest supplier payments, each with its remittance advice (PDF) and, for who may, Cancel with a reason.
export function RecentPayments() {
  const data = useDataProvider();
  const qc = useQueryClient();
  const mayCancel = useDecision(SUPPLIER_PAYMENT_ACCESS.cancel).allowed;
  const mayAllocate = useDecision(SUPPLIER_PAYMENT_ACCESS.allocate).allowed;
  const [cancelling, setCancelling] = useState<Payment | null>(null);
  const [crediting, setCrediting] = useState<Payment | null>(null);
  const [emailing, setEmailing] = useState<Payment | null>(null);
  const refresh = () =>
    Promise.all([qc.invalidateQueries({ queryKey: PAYMENTS_KEY }), qc.invalidateQueries({ queryKey: ["report"] })]);
  const list = useQuery({
    queryKey: PAYMENTS_KEY,
    queryFn: async () =>
      (
        await data.getList("supplier_payment", {
          select: "id,number,status,doc_date,company_id,amount,unallocated,method,reference,company:company(name)",
          order: [
            { column: "doc_date", ascending: false },
            { column: "id", ascending: false },
          ],
          range: [0, 9],
        })
      ).data as unknown as Payment[],
  });
  useErrorToast(list.error);
  if (list.isPending) return <Skeleton height={96} />;
  const rows = list.data ?? [];
  if (!rows.length) {
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        No supplier has been paid yet.
      </Typography>
    );
  }
  return (
    <TableContainer>
      <Table size="small" aria-label="Recent supplier payments">
        <TableHead>
          <TableRow>
            <TableCell>Payment</TableCell>
            <TableCell>Date</TableCell>
            <TableCell>Supplier</TableCell>
            <TableCell>Method</TableCell>
            <TableCell align="right">Amount</TableCell>
            <TableCell align="right">Credit</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((p) => (
            <TableRow key={p.id}>
              <TableCell sx={{ whiteSpace: "nowrap" }}>
                {p.number}
                {p.status === "cancelled" && <Chip size="small" label="Cancelled" sx={{ ml: 1 }} />}
              </TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDate(p.doc_date)}</TableCell>
              <TableCell>{p.company?.name ?? ""}</TableCell>
              <TableCell>{METHOD_LABEL[p.method] ?? p.method}</TableCell>
              <TableCell align="right">{groupedAmount(p.amount)}</TableCell>
              <TableCell align="right">{Number(p.unallocated) ? groupedAmount(p.unallocated) : "—"}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                <Button
                  size="small"
                  startIcon={<PictureAsPdfOutlined />}
                  href={`/api/documents/supplier_payment/${p.id}/pdf`}
                  target="_blank"
                  rel="noopener"
                >
                  Remittance
                </Button>
                {p.status === "submitted" && (
                  <Button size="small" startIcon={<EmailOutlined />} onClick={() => setEmailing(p)}>
                    E-mail
                  </Button>
                )}
                {mayAllocate && p.status === "submitted" && Number(p.unallocated) > 0 && (
                  <Button size="small" onClick={() => setCrediting(p)}>
                    Use credit
                  </Button>
                )}
                {mayCancel && p.status === "submitted" && (
                  <Button size="small" color="error" onClick={() => setCancelling(p)}>
                    Cancel
                  </Button>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {crediting && (
        <CreditDialog
          payment={{
            id: crediting.id,
            number: crediting.number,
            unallocated: crediting.unallocated,
            companyId: crediting.company_id,
            supplier: crediting.company?.name ?? "",
          }}
          onCancel={() => setCrediting(null)}
          onUse={async (allocations) => {
            await data.command("allocate_credit", { type: "supplier_payment", id: crediting.id, allocations });
            toast.success(`${crediting.number}'s credit used`);
            setCrediting(null);
            await refresh();
          }}
        />
      )}
      {emailing && (
        <EmailDialog
          open
          title={`remittance advice ${emailing.number}`}
          recipient={`${emailing.company?.name ?? "the supplier"}'s contact`}
          onCancel={() => setEmailing(null)}
          onConfirm={async (v) => {
            try {
              const sent = await data.command("supplier_payment_email", {
                id: emailing.id,
                ...(v.to ? { to: v.to } : {}),
                ...(v.message ? { message: v.message } : {}),
              });
              toast.success(`Remittance advice ${emailing.number} sent to ${sent.to.join(", ")}`);
              setEmailing(null);
            } catch (err) {
              toast.error(errorMessage(err, "The remittance advice could not be sent"));
            }
          }}
        />
      )}
      {cancelling && (
        <ReasonDialog
          open
          title={`Cancel ${cancelling.number}`}
          prompt="What it paid is owed again and its journal entry is reversed. Why is it cancelled?"
          confirmLabel="Cancel payment"
          destructive
          onCancel={() => setCancelling(null)}
          onConfirm={async (reason) => {
            try {
              await data.command("supplier_payment_cancel", { id: cancelling.id, reason });
              toast.success(`${cancelling.number} cancelled`);
              setCancelling(null);
              await refresh();
            } catch (err) {
              toast.error(errorMessage(err, "The payment could not be cancelled"));
            }
          }}
        />
      )}
    </TableContainer>
  );
}
