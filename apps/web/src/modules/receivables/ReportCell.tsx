import Typography from "@mui/material/Typography";
import { formatDate } from "../../platform/fields/format.ts";
import { type AgeingRow, groupedAmount, type ReportColumn } from "./ageing.ts";

// One value of a report row, shown by its column's kind: money grouped with two decimals (a zero as a dash, so
// the buckets that hold something stand out), dates in the reader's format.
export function Cell({ column, row }: { column: ReportColumn; row: AgeingRow }) {
  const v = row[column.key];
  if (column.kind === "money") {
    const zero = v === null || Number(v) === 0;
    return (
      <Typography variant="body2" component="span" color={zero ? "text.disabled" : "text.primary"}>
        {zero ? "—" : groupedAmount(v)}
      </Typography>
    );
  }
  if (column.kind === "date") return <>{formatDate(v)}</>;
  return <>{v ?? ""}</>;
}

export const alignOf = (c: ReportColumn) => (c.kind === "money" || c.kind === "integer" ? "right" : "left");
