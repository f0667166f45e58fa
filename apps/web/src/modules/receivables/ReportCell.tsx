import Typography from "@mui/material/Typography";
import { formatMoney } from "@workmetrics/domain/money";
import { formatDate } from "../../platform/fields/format.ts";
import type { AgeingRow, ReportColumn } from "./ageing.ts";

// One value of a report row, shown by its column's kind: money in the workspace currency (a zero as a dash, so
// the buckets that hold something stand out), dates in the reader's format.
export function Cell({ column, row, currency }: { column: ReportColumn; row: AgeingRow; currency: string }) {
  const v = row[column.key];
  if (column.kind === "money") {
    const zero = v === null || Number(v) === 0;
    return (
      <Typography variant="body2" component="span" color={zero ? "text.disabled" : "text.primary"}>
        {zero ? "—" : formatMoney(String(v), currency)}
      </Typography>
    );
  }
  if (column.kind === "date") return <>{formatDate(v)}</>;
  return <>{v ?? ""}</>;
}

export const alignOf = (c: ReportColumn) => (c.kind === "money" || c.kind === "integer" ? "right" : "left");
