import type { CommandResult } from "@workmetrics/domain/commands";
import type { ResourceDef } from "@workmetrics/domain/resources/types";
import type { DataProvider } from "../data-access/provider.ts";

// `/rest/v1/rpc/csv_import`: rows keyed by column name, cells as text, one transaction; a bad row refuses the
// whole file (answered with committed: false) unless skip_bad_rows; upsert updates rows with the same natural key.
export type ImportIssue = { line: number; field: string | null; message: string };
export type ImportReport = { committed: boolean; imported: number; skipped: number; issues: ImportIssue[] };

// csv_import's answer (its declaration in packages/domain/src/commands/platform.ts), as far as the report reads it.
type Raw = Pick<CommandResult<"csv_import">, "committed" | "imported" | "skipped" | "errors">;

// The server numbers rows from 1 in the order sent; `lines` maps them back to the file's lines.
export function readReport(raw: Raw, lines: readonly number[]): ImportReport {
  return {
    committed: raw.committed,
    imported: raw.imported,
    skipped: raw.skipped,
    issues: raw.errors.map((e) => ({
      line: lines[e.row - 1] ?? e.row + 1,
      field: e.field,
      message: e.message,
    })),
  };
}

// The report after an import, with the rows the preview found bad (not sent, or refused with the rest) beside the
// server's: every bad line once, by file line; for a cell both found bad, the server's words.
export function withPreviewIssues(
  report: ImportReport,
  preview: readonly { line: number; errors: Record<string, string> }[],
): ImportReport {
  const at = (line: number, field: string | null) => `${line}:${field ?? ""}`;
  const seen = new Set(report.issues.map((i) => at(i.line, i.field)));
  const extra = preview.flatMap((c) =>
    Object.entries(c.errors)
      .filter(([field]) => !seen.has(at(c.line, field || null)))
      .map(([field, message]) => ({ line: c.line, field: field || null, message })),
  );
  const issues = [...report.issues, ...extra].sort((a, b) => a.line - b.line);
  return { ...report, issues, skipped: new Set(issues.map((i) => i.line)).size };
}

export async function runImport(
  data: DataProvider,
  def: ResourceDef,
  rows: readonly { line: number; cells: Record<string, string> }[],
  opts: { skipBadRows: boolean; upsert: boolean },
): Promise<ImportReport> {
  const raw = await data.command("csv_import", {
    resource: def.name,
    rows: rows.map((r) => r.cells),
    skip_bad_rows: opts.skipBadRows,
    upsert: opts.upsert,
  });
  return readReport(
    raw,
    rows.map((r) => r.line),
  );
}
