import type { CommandResult } from "@workmetrics/domain/commands";
import { toCsv } from "../../platform/data-access/csv.ts";
import { type Readable, resourceByName } from "../../platform/resource/definition.ts";
import { PAYABLE } from "../documents/payments.ts";

// The `ar_ageing` report as the page reads it (DESIGN §2.3.1 {columns, rows, totals}) and its CSV: pure, so it is
// tested apart from the page.

export type AgeingReport = CommandResult<"report">; // drill: the drill-down's rows, the document each is
export type ReportColumn = AgeingReport["columns"][number];
export type AgeingRow = AgeingReport["rows"][number];

// One line per row with the report's own column labels, then a Total line with the totals of the money columns.
export function ageingCsv(report: AgeingReport): string {
  const { columns, rows, totals } = report;
  const line = (r: Record<string, unknown>) => columns.map((c) => r[c.key] ?? "");
  const total = columns.map((c, i) => (i === 0 ? "Total" : c.kind === "money" ? (totals[c.key] ?? "") : ""));
  return toCsv([columns.map((c) => c.label), ...rows.map(line), total]);
}

// The statement's period: from the first of the month a year before the as-of date to the as-of date.
export function statementPeriod(asOf: string): { from: string; to: string } {
  const [y, m] = asOf.split("-");
  return { from: `${Number(y) - 1}-${m}-01`, to: asOf };
}

export const todayIso = (now = new Date()): string => {
  const local = new Date(now.getTime() - now.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 10);
};

// A decimal string as the table shows it: thousands grouped, two decimals, no currency (the page names it once).
// String work, not floats, so a large amount is never rounded on the way.
export function groupedAmount(value: string | number | null | undefined): string {
  const text = String(value ?? "0").trim();
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return text;
  const cents = (m[3] ?? "").padEnd(2, "0").slice(0, 2);
  return `${m[1]}${m[2].replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${cents}`;
}

// Where the drill-down's "All …" links go: one list per receivable type the member reads (invoices, debit notes,
// progressive claims — what the drill-down itself lists), each filtered to the customer.
export function receivableLists(base: string, companyId: number, readable: Readable): { label: string; to: string }[] {
  return Object.keys(PAYABLE).flatMap((type) => {
    const def = resourceByName(type);
    return def.route && readable(type)
      ? [{ label: `All ${def.plural.toLowerCase()}`, to: `${base}/${def.route}?customer=${companyId}` }]
      : [];
  });
}
