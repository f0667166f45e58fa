import Card from "@mui/material/Card";
import Stack from "@mui/material/Stack";
import { useState } from "react";
import { formatSpelledDate } from "../../platform/fields/format.ts";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { AgeingHeader, AgeingTable, useAsOf } from "./AgeingTable.tsx";
import { CustomerInvoices } from "./CustomerInvoices.tsx";
import { useAgeing } from "./useAgeing.ts";

// Issue 10 §2 "Accounts receivable" (/dashboard/accounts-receivable): what each customer owes as of a date, by how
// long it is past due, with a totals row; a customer opens to its open invoices and its statement; CSV export.
// Who may open it is the module's access (REPORT_ACCESS.ar_ageing); the server refuses the same.

export default function ReceivablesPage() {
  usePageTitle("Accounts receivable");
  const { currency } = useViewer();
  const [open, setOpen] = useState<number | null>(null);
  const { asOf, typed, pick } = useAsOf(() => setOpen(null));
  const report = useAgeing(asOf);
  useErrorToast(report.error);
  const data = report.data;

  return (
    <Stack spacing={2}>
      <AgeingHeader
        title="Accounts receivable"
        subtitle={`What customers owe as of ${formatSpelledDate(asOf)} in ${currency}, by days past the due date`}
        typed={typed}
        onPick={pick}
        report={data}
        csvName={`accounts-receivable-${asOf}.csv`}
      />
      <Card variant="outlined">
        <AgeingTable
          report={data}
          loading={report.isPending}
          open={open}
          onToggle={(id) => setOpen(open === id ? null : id)}
          detail={(companyId, company) => <CustomerInvoices companyId={companyId} company={company} asOf={asOf} />}
          loadingLabel="Loading receivables"
          tableLabel="Receivables by customer"
          emptyText={`No customer has an unpaid invoice dated on or before ${formatSpelledDate(asOf)}.`}
          testId="ageing"
        />
      </Card>
    </Stack>
  );
}
