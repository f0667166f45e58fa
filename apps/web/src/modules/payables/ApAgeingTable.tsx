import KeyboardArrowDown from "@mui/icons-material/KeyboardArrowDown";
import KeyboardArrowRight from "@mui/icons-material/KeyboardArrowRight";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Skeleton from "@mui/material/Skeleton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { Fragment, type ReactNode } from "react";
import { formatDate } from "../../platform/fields/format.ts";
import { type AgeingReport, groupedAmount } from "../receivables/ageing.ts";
import { alignOf, Cell } from "../receivables/ReportCell.tsx";

// What the workspace owes each supplier (ap_ageing), a row per supplier that opens to its invoices, and the totals.
export function ApAgeingTable(props: {
  report: AgeingReport | undefined;
  loading: boolean;
  asOf: string;
  open: number | null;
  onToggle(id: number): void;
  detail(companyId: number, company: string): ReactNode;
}) {
  const { report, loading, asOf, open, onToggle } = props;
  if (loading || !report) {
    return (
      <Box sx={{ p: 2 }} aria-busy="true" aria-label="Loading payables">
        {[0, 1, 2, 3, 4].map((i) => (
          <Skeleton key={i} height={36} />
        ))}
      </Box>
    );
  }
  if (!report.rows.length) {
    return (
      <Box sx={{ p: 4, textAlign: "center" }} data-testid="ap-ageing-empty">
        <Typography variant="h6" component="p">
          Nothing is owed
        </Typography>
        <Typography color="text.secondary">
          No supplier invoice dated on or before {formatDate(asOf)} is unpaid.
        </Typography>
      </Box>
    );
  }
  const columns = report.columns;
  return (
    <TableContainer>
      <Table size="small" aria-label="Payables by supplier" data-testid="ap-ageing-table">
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
          <TableRow data-testid="ap-ageing-totals">
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
