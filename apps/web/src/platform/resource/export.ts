import type { FieldDef, ResourceDef } from "@workmetrics/domain/resources/types";
import { toCsv } from "../data-access/csv.ts";
import type { PgFilter, PgOrder } from "../data-access/filters.ts";
import type { DataProvider, Row } from "../data-access/provider.ts";
import { referenceLabel, selectWithLabels } from "./definition.ts";

const PAGE = 1000;

// A cell as a spreadsheet (and our CSV import) wants it: raw decimals and ISO dates, labels for references.
export function exportValue(def: ResourceDef, field: FieldDef, row: Record<string, unknown>): unknown {
  const v = row[field.name];
  if (field.kind === "reference") return referenceLabel(def, field, row) ?? "";
  if (Array.isArray(v)) return v.join(", ");
  return v;
}

export function rowsToCsv(def: ResourceDef, fields: readonly FieldDef[], rows: readonly Row[]): string {
  return toCsv([fields.map((f) => f.label), ...rows.map((r) => fields.map((f) => exportValue(def, f, r)))]);
}

// Every row matching the list's filters, in its order, page by page (issue 5: "CSV export of the filtered set").
export async function fetchAll(
  data: DataProvider,
  def: ResourceDef,
  query: { select?: string; filters: readonly PgFilter[]; order: readonly PgOrder[] },
  onProgress: (done: number, total: number | null) => void,
  signal?: AbortSignal,
): Promise<Row[]> {
  const rows: Row[] = [];
  let total: number | null = null;
  for (let from = 0; ; from = rows.length) {
    const page = await data.getList(def.name, {
      select: query.select ?? selectWithLabels(def),
      filters: query.filters,
      order: query.order,
      range: [from, from + PAGE - 1],
      count: from === 0,
      signal,
    });
    if (from === 0) total = page.total;
    rows.push(...page.data);
    onProgress(rows.length, total);
    // The server may answer fewer than PAGE rows (its MAX_ROWS): with a total, only reaching it or an empty
    // page ends the export, and the next page starts after the rows that came.
    if (page.data.length === 0 || (total === null ? page.data.length < PAGE : rows.length >= total)) return rows;
  }
}

export function download(filename: string, text: string): void {
  // A BOM so spreadsheet programs read the file as UTF-8.
  const blob = new Blob([`\uFEFF${text}`], { type: "text/csv;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
