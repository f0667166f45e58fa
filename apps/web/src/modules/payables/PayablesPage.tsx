import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { SUPPLIER_PAYMENT_ACCESS } from "@workmetrics/domain/resources/payables";
import { useState } from "react";
import { Link as RouterLink } from "react-router";
import { formatDate, formatSpelledDate } from "../../platform/fields/format.ts";
import { useDecision } from "../../platform/resource/access.ts";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { AgeingHeader, AgeingTable, useAsOf } from "../receivables/AgeingTable.tsx";
import { type AgeingReport, groupedAmount } from "../receivables/ageing.ts";
import { alignOf, Cell } from "../receivables/ReportCell.tsx";
import { PayDialog, usePaySupplier } from "./PayDialog.tsx";
import type { Payable } from "./pay.ts";
import { RecentPayments } from "./RecentPayments.tsx";
import { SupplierInvoices } from "./SupplierInvoices.tsx";
import { useReport } from "./useReport.ts";

// Issue 11 "Accounts payable" (/dashboard/accounts-payable): what the workspace owes each supplier as of a date,
// aged 0–30 / 31–60 / 61–90 / 90+ days past due, what falls due this week, CSV export; a supplier opens to its
// invoices, the chosen ones are paid together (record_payment type supplier_payment), and each payment prints its
// remittance advice. Who may open it is REPORT_ACCESS.ap_ageing; who may pay, SUPPLIER_PAYMENT_ACCESS.create.

export default function PayablesPage() {
  usePageTitle("Accounts payable");
  const { currency } = useViewer();
  const pay = usePaySupplier();
  const [open, setOpen] = useState<number | null>(null);
  const { asOf, typed, pick } = useAsOf(() => setOpen(null));
  const report = useReport({ name: "ap_ageing", as_of: asOf });
  useErrorToast(report.error);
  const [paying, setPaying] = useState<{ companyId: number; company: string; chosen: Payable[] } | null>(null);
  const mayPay = useDecision(SUPPLIER_PAYMENT_ACCESS.create).allowed;
  const aged = report.data;

  return (
    <Stack spacing={2}>
      <AgeingHeader
        title="Accounts payable"
        subtitle={`What we owe suppliers as of ${formatSpelledDate(asOf)} in ${currency}, by days past the due date`}
        typed={typed}
        onPick={pick}
        report={aged}
        csvName={`accounts-payable-${asOf}.csv`}
      />
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
        <Figure label="Owed" value={aged?.totals.total} />
        <Figure label="Overdue" value={aged?.totals.overdue} tone="error.main" />
        <Figure label="Due this week" value={aged?.totals.due_this_week} tone="warning.main" />
      </Stack>
      <Card variant="outlined">
        <AgeingTable
          report={aged}
          loading={report.isPending}
          open={open}
          onToggle={(id) => setOpen(open === id ? null : id)}
          detail={(companyId, company) => (
            <SupplierInvoices
              companyId={companyId}
              company={company}
              asOf={asOf}
              mayPay={mayPay}
              onPay={(chosen) => setPaying({ companyId, company, chosen })}
            />
          )}
          loadingLabel="Loading payables"
          tableLabel="Payables by supplier"
          emptyText={`No supplier invoice dated on or before ${formatSpelledDate(asOf)} is unpaid.`}
          testId="ap-ageing"
        />
      </Card>
      <Section title="Due this week">
        <DueThisWeek asOf={asOf} />
      </Section>
      {mayPay && (
        <Section title="Recent payments">
          <RecentPayments />
        </Section>
      )}
      {paying && (
        <PayDialog
          supplier={paying.company}
          currency={currency}
          chosen={paying.chosen}
          onCancel={() => setPaying(null)}
          onPay={(p) =>
            pay({ companyId: paying.companyId, supplier: paying.company, currency }, p, () => setPaying(null))
          }
        />
      )}
    </Stack>
  );
}

function Figure({ label, value, tone }: { label: string; value: string | number | undefined; tone?: string }) {
  const some = value !== undefined && Number(value) !== 0;
  return (
    <Card variant="outlined" sx={{ flex: 1 }}>
      <CardContent sx={{ py: 1.5, "&:last-child": { pb: 1.5 } }}>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h5" component="p" color={some && tone ? tone : "text.primary"}>
          {value === undefined ? "…" : groupedAmount(value)}
        </Typography>
      </CardContent>
    </Card>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card variant="outlined">
      <Typography variant="h6" component="h2" sx={{ px: 2, pt: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Card>
  );
}

// Every supplier invoice due from the as-of date to six days after it, whoever the supplier.
function DueThisWeek({ asOf }: { asOf: string }) {
  const base = useDashboardBase();
  const week = useReport({ name: "ap_ageing", as_of: asOf, due: "this_week" });
  useErrorToast(week.error);
  const r: AgeingReport | undefined = week.data;
  if (!r) return null;
  if (!r.rows.length) {
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        Nothing falls due in the seven days from {formatDate(asOf)}.
      </Typography>
    );
  }
  const columns = r.columns.filter((c) =>
    ["company", "number", "supplier_invoice_number", "due_date", "total"].includes(c.key),
  );
  return (
    <Table size="small" aria-label="Due this week">
      <TableHead>
        <TableRow>
          {columns.map((c) => (
            <TableCell key={c.key} align={alignOf(c)}>
              {c.label}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {r.rows.map((row) => (
          <TableRow key={String(row.id)}>
            {columns.map((c) => (
              <TableCell key={c.key} align={alignOf(c)} sx={{ whiteSpace: "nowrap" }}>
                {c.key === "number" ? (
                  <Link component={RouterLink} to={`${base}/supplier-invoices/${String(row.id)}`}>
                    {String(row.number)}
                  </Link>
                ) : (
                  <Cell column={c} row={row} />
                )}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
