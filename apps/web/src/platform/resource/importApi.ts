import type { ResourceDef } from "@workmetrics/domain/resources/types";
import type { DataProvider } from "../data-access/provider.ts";
import type { FormValues } from "../fields/convert.ts";

// `/rest/v1/rpc/csv_import`: all rows in one transaction; a bad row refuses the whole file unless skip_bad_rows.
export type ImportIssue = { line: number; field: string | null; message: string };
export type ImportReport = {
  imported: number;
  created: number;
  updated: number;
  skipped: number;
  issues: ImportIssue[];
};

type Raw = Record<string, unknown>;

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

// The server numbers rows from 0 in the order sent; `lines` maps them back to the file's lines.
export function readReport(raw: Raw, lines: readonly number[]): ImportReport {
  const list = (raw.errors ?? raw.issues ?? []) as Raw[];
  const issues: ImportIssue[] = [];
  for (const e of Array.isArray(list) ? list : []) {
    const index = num(e.row ?? e.index);
    const line = lines[index] ?? index + 2;
    const field = typeof e.field === "string" ? e.field : typeof e.column === "string" ? e.column : null;
    const fieldErrors = e.errors && typeof e.errors === "object" ? Object.entries(e.errors as Raw) : [];
    if (fieldErrors.length) {
      for (const [f, m] of fieldErrors) issues.push({ line, field: f, message: String(m) });
    } else {
      issues.push({ line, field, message: String(e.message ?? "Invalid row") });
    }
  }
  const created = num(raw.inserted ?? raw.created);
  const updated = num(raw.updated);
  return {
    imported: num(raw.imported) || created + updated,
    created,
    updated,
    skipped: num(raw.skipped),
    issues,
  };
}

export async function runImport(
  data: DataProvider,
  def: ResourceDef,
  rows: readonly { line: number; values: FormValues }[],
  skipBadRows: boolean,
): Promise<ImportReport> {
  const raw = await data.rpc<Raw>("csv_import", {
    resource: def.name,
    rows: rows.map((r) => r.values),
    skip_bad_rows: skipBadRows,
  });
  return readReport(
    raw ?? {},
    rows.map((r) => r.line),
  );
}
