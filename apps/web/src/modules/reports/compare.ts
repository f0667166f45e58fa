import { dec, money as twoPlaces } from "@workmetrics/domain/documents/decimal";
import type { ReportColumn, ReportDrill, ReportResult } from "@workmetrics/domain/reports";
import { toCsv } from "../../platform/data-access/csv.ts";

// What the reports page shows of a report (issue 12): the rows as answered or, comparing with the previous period,
// each money column followed by its previous figure and the change, the previous answer's rows matched by the
// report's `key` (by position when it names none: months against the months before). Rows only in the previous
// period are added at the end, so nothing it held disappears. Pure, tested apart; the CSV is exactly this table.

export type Row = Record<string, string | number | null>;
export type Shown = { columns: ReportColumn[]; rows: Row[]; drill: (ReportDrill | null)[]; totals: Row };

// The change between two decimal strings, exact (decimal.js, never a binary float); null when either is not a number.
export function change(now: unknown, before: unknown): string | null {
  try {
    return twoPlaces(dec(String(now ?? "0")).minus(dec(String(before ?? "0"))));
  } catch {
    return null;
  }
}

const prevKey = (k: string) => `${k}__previous`;
const changeKey = (k: string) => `${k}__change`;

// `only`: the money columns compared (a report's main figure), so a wide report stays readable; default all.
export function shown(current: ReportResult, previous?: ReportResult, label = "Previous", only?: string[]): Shown {
  const drill = current.rows.map((_, i) => current.drill?.[i] ?? null);
  if (!previous) return { columns: current.columns, rows: current.rows, drill, totals: current.totals };
  const money = current.columns.filter((c) => c.kind === "money" && (!only?.length || only.includes(c.key)));
  const compared = new Set(money.map((c) => c.key));
  const columns = current.columns.flatMap((c) =>
    compared.has(c.key)
      ? [
          c,
          { key: prevKey(c.key), label: `${c.label} (${label})`, kind: "money" as const },
          { key: changeKey(c.key), label: `${c.label} change`, kind: "money" as const },
        ]
      : [c],
  );
  const key = current.key;
  const identity = (r: Row, i: number) => (key ? String(r[key] ?? `#${i}`) : `#${i}`);
  const before = new Map(previous.rows.map((r, i) => [identity(r, i), r]));
  const used = new Set<string>();
  const merge = (now: Row | null, was: Row | undefined): Row => {
    const out: Row = { ...(now ?? was ?? {}) };
    for (const c of money) {
      if (!now) out[c.key] = null;
      out[prevKey(c.key)] = was ? (was[c.key] ?? null) : null;
      out[changeKey(c.key)] = change(now?.[c.key], was?.[c.key]);
    }
    return out;
  };
  const rows = current.rows.map((r, i) => {
    const id = identity(r, i);
    used.add(id);
    return merge(r, before.get(id));
  });
  const gone = previous.rows.filter((r, i) => !used.has(identity(r, i)) && (key || r.row_kind === undefined));
  const totals: Row = { ...current.totals };
  for (const c of money) {
    if (current.totals[c.key] === undefined) continue;
    totals[prevKey(c.key)] = previous.totals[c.key] ?? null;
    totals[changeKey(c.key)] = change(current.totals[c.key], previous.totals[c.key]);
  }
  return {
    columns,
    rows: [...rows, ...gone.map((r) => merge(null, r))],
    drill: [...drill, ...gone.map(() => null)],
    totals,
  };
}

// The table as CSV: its column labels, its rows, then a Total line when the report has totals for its columns.
export function reportCsv(s: Shown): string {
  const line = (r: Row) => s.columns.map((c) => r[c.key] ?? "");
  const hasTotals = s.columns.some((c, i) => i > 0 && s.totals[c.key] !== undefined);
  const total = s.columns.map((c, i) => (i === 0 ? "Total" : (s.totals[c.key] ?? "")));
  return toCsv([s.columns.map((c) => c.label), ...s.rows.map(line), ...(hasTotals ? [total] : [])]);
}
