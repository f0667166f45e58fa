import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Skeleton from "@mui/material/Skeleton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { ReportColumn } from "@workmetrics/domain/reports";
import { Link as RouterLink, useNavigate } from "react-router";
import { formatDate } from "../../platform/fields/format.ts";
import { groupedAmount } from "../receivables/ageing.ts";
import type { Row, Shown } from "./compare.ts";
import { type DrillTarget, drillTarget } from "./drill.ts";

// A report's table (issue 12): columns by kind (money grouped and right-aligned, a negative in red, dates in the
// reader's format), section headings, subtotal and total rows bold (the report's `row_kind`), the totals row, and
// each row that leads somewhere (drill) opening it — its first cell a link, the whole row clickable.

const align = (c: ReportColumn) => (c.kind === "money" || c.kind === "integer" ? "right" : "left");

function Value({ column, row }: { column: ReportColumn; row: Row }) {
  const v = row[column.key];
  if (v === null || v === undefined || v === "") return null;
  if (column.kind === "money") {
    const negative = String(v).startsWith("-");
    return (
      <Typography variant="body2" component="span" color={negative ? "error.main" : undefined} sx={{ font: "inherit" }}>
        {groupedAmount(v)}
      </Typography>
    );
  }
  if (column.kind === "date") return <>{formatDate(v)}</>;
  return <>{String(v)}</>;
}

const STRONG = new Set(["subtotal", "total", "heading", "section"]);
const QUIET = new Set(["opening", "note", "closing"]);

export function ReportTable(props: {
  shown: Shown | undefined;
  loading: boolean;
  title: string;
  base: string;
  empty: string;
  linkState: unknown; // carried to a drilled report, so it can offer the way back (its breadcrumb)
}) {
  const navigate = useNavigate();
  const { shown } = props;
  if (props.loading || !shown) {
    return (
      <Box sx={{ p: 2 }} aria-busy="true" aria-label={`Loading ${props.title}`}>
        {[0, 1, 2, 3, 4, 5].map((i) => (
          <Skeleton key={i} height={34} />
        ))}
      </Box>
    );
  }
  if (!shown.rows.length) {
    return (
      <Box sx={{ p: 4, textAlign: "center" }} data-testid="report-empty">
        <Typography variant="h6" component="p">
          Nothing to show
        </Typography>
        <Typography color="text.secondary">{props.empty}</Typography>
      </Box>
    );
  }
  const { columns, rows, totals } = shown;
  // A section (P&L, balance sheet) is named on its first row only; a row's link is on its first other column.
  // A row's link sits on its number where it has one (a ledger line's document number), else on its first cell.
  const linkKey = columns.find((c) => c.key === "number")?.key ?? columns.find((c) => c.key !== "section")?.key;
  const hasTotals = columns.some((c, i) => i > 0 && c.kind === "money" && totals[c.key] !== undefined);
  const open = (t: Exclude<DrillTarget, null>) => {
    if (t.kind === "pdf") window.open(t.href, "_blank", "noopener");
    else navigate(t.to, { state: t.kind === "report" ? props.linkState : undefined });
  };
  return (
    <TableContainer>
      <Table size="small" aria-label={props.title} data-testid="report-table" stickyHeader>
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell key={c.key} align={align(c)} sx={{ fontWeight: 600, whiteSpace: "nowrap" }}>
                {c.label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row, i) => {
            const target = drillTarget(shown.drill[i], props.base);
            const kind = String(row.row_kind ?? "");
            const strong = STRONG.has(kind);
            return (
              <TableRow
                // biome-ignore lint/suspicious/noArrayIndexKey: report rows have no id of their own; their order is the report's
                key={i}
                hover={Boolean(target)}
                onClick={target ? () => open(target) : undefined}
                sx={{
                  cursor: target ? "pointer" : undefined,
                  ...(kind === "total" ? { bgcolor: "action.hover" } : {}),
                }}
                data-row-kind={kind || undefined}
              >
                {columns.map((c, j) => (
                  <TableCell
                    key={c.key}
                    align={align(c)}
                    sx={{
                      whiteSpace: c.kind === "text" && j > 0 ? "normal" : "nowrap",
                      fontWeight: strong ? 700 : undefined,
                      fontStyle: QUIET.has(kind) ? "italic" : undefined,
                    }}
                  >
                    {c.key === "section" && i > 0 && rows[i - 1].section === row.section ? null : c.key === linkKey &&
                      target ? (
                      <DrillLink target={target} state={props.linkState}>
                        <Value column={c} row={row} />
                      </DrillLink>
                    ) : (
                      <Value column={c} row={row} />
                    )}
                  </TableCell>
                ))}
              </TableRow>
            );
          })}
          {hasTotals && (
            <TableRow data-testid="report-totals" sx={{ bgcolor: "action.selected" }}>
              {columns.map((c, i) => (
                <TableCell key={c.key} align={align(c)} sx={{ fontWeight: 700, whiteSpace: "nowrap" }}>
                  {i === 0 ? (
                    "Total"
                  ) : (c.kind === "money" || c.kind === "integer") && totals[c.key] !== undefined ? (
                    <Value column={c} row={totals} />
                  ) : (
                    ""
                  )}
                </TableCell>
              ))}
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function DrillLink(props: { target: Exclude<DrillTarget, null>; state: unknown; children: React.ReactNode }) {
  const { target } = props;
  const stop = (e: React.MouseEvent) => e.stopPropagation(); // the link opens it, not the row as well
  if (target.kind === "pdf") {
    return (
      <Link href={target.href} target="_blank" rel="noopener" onClick={stop}>
        {props.children}
      </Link>
    );
  }
  return (
    <Link
      component={RouterLink}
      to={target.to}
      state={target.kind === "report" ? props.state : undefined}
      onClick={stop}
    >
      {props.children}
    </Link>
  );
}
