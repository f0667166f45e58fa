import DownloadOutlined from "@mui/icons-material/DownloadOutlined";
import KeyboardArrowDown from "@mui/icons-material/KeyboardArrowDown";
import KeyboardArrowRight from "@mui/icons-material/KeyboardArrowRight";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import IconButton from "@mui/material/IconButton";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { Fragment, useState } from "react";
import { useSearchParams } from "react-router";
import { formatDate } from "../../platform/fields/format.ts";
import { LazyDateInput } from "../../platform/fields/LazyDateInput.tsx";
import { download } from "../../platform/resource/export.ts";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { type AgeingReport, ageingCsv, groupedAmount, todayIso } from "./ageing.ts";
import { CustomerInvoices } from "./CustomerInvoices.tsx";
import { alignOf, Cell } from "./ReportCell.tsx";
import { useAgeing } from "./useAgeing.ts";

// Issue 10 §2 "Accounts receivable" (/dashboard/accounts-receivable): what each customer owes as of a date, by how
// long it is past due, with a totals row; a customer opens to its open invoices and its statement; CSV export.
// Who may open it is the module's access (REPORT_ACCESS.ar_ageing); the server refuses the same.

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export default function ReceivablesPage() {
  usePageTitle("Accounts receivable");
  const { currency } = useViewer();
  const [params, setParams] = useSearchParams();
  const asOfParam = params.get("as_of");
  const asOf = asOfParam && DAY.test(asOfParam) ? asOfParam : todayIso();
  const [typed, setTyped] = useState(asOf);
  const report = useAgeing(asOf);
  useErrorToast(report.error);
  const [open, setOpen] = useState<number | null>(null);
  const data = report.data;

  const pick = (value: string) => {
    setTyped(value);
    if (!DAY.test(value)) return;
    setOpen(null);
    setParams(value === todayIso() ? {} : { as_of: value }, { replace: true });
  };

  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography variant="h4" component="h1">
            Accounts receivable
          </Typography>
          <Typography color="text.secondary">
            What customers owe as of {formatDate(asOf)} in {currency}, by days past the due date
          </Typography>
        </Box>
        <Box sx={{ width: 200 }}>
          <LazyDateInput kind="date" name="as_of" label="As of" value={typed} onChange={pick} onBlur={() => {}} />
        </Box>
        <Button
          variant="outlined"
          startIcon={<DownloadOutlined />}
          disabled={!data?.rows.length}
          onClick={() => data && download(`accounts-receivable-${asOf}.csv`, ageingCsv(data))}
        >
          Export CSV
        </Button>
      </Stack>
      <Card variant="outlined">
        <AgeingTable
          report={data}
          loading={report.isPending}
          asOf={asOf}
          open={open}
          onToggle={(id) => setOpen(open === id ? null : id)}
        />
      </Card>
    </Stack>
  );
}

function AgeingTable(props: {
  report: AgeingReport | undefined;
  loading: boolean;
  asOf: string;
  open: number | null;
  onToggle(id: number): void;
}) {
  const { report, loading, asOf, open, onToggle } = props;
  if (loading || !report) {
    return (
      <Box sx={{ p: 2 }} aria-busy="true" aria-label="Loading receivables">
        {[0, 1, 2, 3, 4].map((i) => (
          <Skeleton key={i} height={36} />
        ))}
      </Box>
    );
  }
  if (!report.rows.length) {
    return (
      <Box sx={{ p: 4, textAlign: "center" }} data-testid="ageing-empty">
        <Typography variant="h6" component="p">
          Nothing is owed
        </Typography>
        <Typography color="text.secondary">
          No customer has an unpaid invoice dated on or before {formatDate(asOf)}.
        </Typography>
      </Box>
    );
  }
  const columns = report.columns;
  return (
    <TableContainer>
      <Table size="small" aria-label="Receivables by customer" data-testid="ageing-table">
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox" />
            {columns.map((c) => (
              <TableCell key={c.key} align={alignOf(c)} sx={{ fontWeight: 600, whiteSpace: "nowrap" }}>
                {c.label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {report.rows.map((row) => {
            const id = Number(row.company_id);
            const expanded = open === id;
            return (
              <Fragment key={id}>
                <TableRow hover sx={{ cursor: "pointer" }} onClick={() => onToggle(id)} selected={expanded}>
                  <TableCell padding="checkbox">
                    <IconButton
                      size="small"
                      aria-label={`${expanded ? "Hide" : "Show"} the open invoices of ${row.company}`}
                      aria-expanded={expanded}
                    >
                      {expanded ? <KeyboardArrowDown /> : <KeyboardArrowRight />}
                    </IconButton>
                  </TableCell>
                  {columns.map((c) => (
                    <TableCell key={c.key} align={alignOf(c)} sx={{ whiteSpace: "nowrap" }}>
                      <Cell column={c} row={row} />
                    </TableCell>
                  ))}
                </TableRow>
                {expanded && (
                  <TableRow>
                    <TableCell colSpan={columns.length + 1} sx={{ bgcolor: "action.hover", p: 0 }}>
                      <CustomerInvoices companyId={id} company={String(row.company)} asOf={asOf} />
                    </TableCell>
                  </TableRow>
                )}
              </Fragment>
            );
          })}
          <TableRow data-testid="ageing-totals">
            <TableCell />
            {columns.map((c, i) => (
              <TableCell key={c.key} align={alignOf(c)} sx={{ fontWeight: 700, whiteSpace: "nowrap" }}>
                {i === 0 ? "Total" : c.kind === "money" ? groupedAmount(report.totals[c.key]) : ""}
              </TableCell>
            ))}
          </TableRow>
        </TableBody>
      </Table>
    </TableContainer>
  );
}
