import DownloadOutlined from "@mui/icons-material/DownloadOutlined";
import KeyboardArrowDown from "@mui/icons-material/KeyboardArrowDown";
import KeyboardArrowRight from "@mui/icons-material/KeyboardArrowRight";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
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
import { Fragment, type ReactNode, useState } from "react";
import { useSearchParams } from "react-router";
import { LazyDateInput } from "../../platform/fields/LazyDateInput.tsx";
import { download } from "../../platform/resource/export.ts";
import { type AgeingReport, ageingCsv, groupedAmount, todayIso } from "./ageing.ts";
import { alignOf, Cell } from "./ReportCell.tsx";

// The parts the receivables (ar_ageing) and payables (ap_ageing) pages share: the as-of date kept in ?as_of=, the
// page header with its date and CSV export, and the table of companies that each open to their invoices.

const DAY = /^\d{4}-\d{2}-\d{2}$/;

// The as-of date from ?as_of= (today when absent or malformed) and the date as typed; a complete date typed is
// written back to the address (today as no parameter) and onPicked runs.
export function useAsOf(onPicked: () => void) {
  const [params, setParams] = useSearchParams();
  const asOfParam = params.get("as_of");
  const asOf = asOfParam && DAY.test(asOfParam) ? asOfParam : todayIso();
  const [typed, setTyped] = useState(asOf);
  const pick = (value: string) => {
    setTyped(value);
    if (!DAY.test(value)) return;
    onPicked();
    setParams(value === todayIso() ? {} : { as_of: value }, { replace: true });
  };
  return { asOf, typed, pick };
}

export function AgeingHeader(props: {
  title: string;
  subtitle: string;
  typed: string;
  onPick(value: string): void;
  report: AgeingReport | undefined;
  csvName: string;
}) {
  const { report } = props;
  return (
    <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
      <Box sx={{ flexGrow: 1 }}>
        <Typography variant="h4" component="h1">
          {props.title}
        </Typography>
        <Typography color="text.secondary">{props.subtitle}</Typography>
      </Box>
      <Box sx={{ width: 200 }}>
        <LazyDateInput
          kind="date"
          name="as_of"
          label="As of"
          value={props.typed}
          onChange={props.onPick}
          onBlur={() => {}}
        />
      </Box>
      <Button
        variant="outlined"
        startIcon={<DownloadOutlined />}
        disabled={!report?.rows.length}
        onClick={() => report && download(props.csvName, ageingCsv(report))}
      >
        Export CSV
      </Button>
    </Stack>
  );
}

export function AgeingTable(props: {
  report: AgeingReport | undefined;
  loading: boolean;
  open: number | null;
  onToggle(id: number): void;
  detail(companyId: number, company: string): ReactNode;
  // The words and test ids that tell the two ledgers apart.
  loadingLabel: string;
  tableLabel: string;
  emptyText: string;
  testId: string;
}) {
  const { report, loading, open, onToggle, testId } = props;
  if (loading || !report) {
    return (
      <Box sx={{ p: 2 }} aria-busy="true" aria-label={props.loadingLabel}>
        {[0, 1, 2, 3, 4].map((i) => (
          <Skeleton key={i} height={36} />
        ))}
      </Box>
    );
  }
  if (!report.rows.length) {
    return (
      <Box sx={{ p: 4, textAlign: "center" }} data-testid={`${testId}-empty`}>
        <Typography variant="h6" component="p">
          Nothing is owed
        </Typography>
        <Typography color="text.secondary">{props.emptyText}</Typography>
      </Box>
    );
  }
  const columns = report.columns;
  return (
    <TableContainer>
      <Table size="small" aria-label={props.tableLabel} data-testid={`${testId}-table`}>
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
                      {props.detail(id, String(row.company))}
                    </TableCell>
                  </TableRow>
                )}
              </Fragment>
            );
          })}
          <TableRow data-testid={`${testId}-totals`}>
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
