import { isNumberedType } from "@workmetrics/domain/documents/numbering";
import type { ReportDrill } from "@workmetrics/domain/reports";
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";

// What the financial reports share: the period parameters, the natural sign of an account, the year-end close
// entries the P&L leaves out, and where a journal line leads. Every figure is summed in SQL (group by account) over
// the workspace's own lines; nothing loads the ledger into Node.

export const isoDate = z.iso.date();

// A period runs forwards (an open end always does); the financial reports and the GST filing refuse one that runs
// backwards in these words.
export const runsForward = (p: { from?: string; to?: string }) => !p.from || !p.to || p.from <= p.to;
export const BACKWARDS = { message: "The period must start on or before it ends" };

export const period = z.object({ from: isoDate.optional(), to: isoDate.optional() }).refine(runsForward, BACKWARDS);

// A period with both ends given (a GST quarter): gst_f5_file's arguments, declared in the domain.
export { closedPeriod } from "@workmetrics/domain/commands/reports";

// Balances show on the account's natural side: assets and expenses debit-positive, liabilities, equity and income
// credit-positive. A contra account (Sales Returns under income) keeps its root's side, so it shows negative and
// lowers its section, as it should.
export const naturalSign = (root: SQL) => sql`(case when ${root} in ('asset', 'expense') then 1 else -1 end)`;

// The day before an ISO date, and the day after (period openings; the profit since the last close).
export function shiftDay(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const firstOfMonth = (iso: string) => `${iso.slice(0, 8)}01`;
function nextMonth(iso: string): string {
  const d = new Date(`${firstOfMonth(iso)}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 10);
}

// Σ debit and Σ credit per account of the entries dated `from`–`to` (no `from`: since the first), as a query of
// (account_code, debit, credit): the whole months inside the range from journal_month (kept by triggers), the lines of
// the partial months at either end from journal_line through the entries' date index. A year's trial balance over a
// million lines reads twelve months' sums per account and no lines; a period ending mid-month reads that month's.
export function accountSums(ws: string, range: { from?: string; to: string }, account?: string): SQL {
  const { from, to } = range;
  const afterTo = shiftDay(to, 1);
  const monthsEnd = afterTo.endsWith("-01") ? afterTo : firstOfMonth(to); // exclusive
  const monthsStart = from === undefined ? undefined : from.endsWith("-01") ? from : nextMonth(from);
  const onlyAccount = (col: SQL) => (account === undefined ? sql`` : sql`and ${col} = ${account}`);
  let months: SQL | null = null;
  let lines: SQL;
  if (monthsStart !== undefined && monthsStart >= monthsEnd) {
    lines = sql`e.entry_date between ${from}::date and ${to}::date`;
  } else {
    months = sql`select m.account_code, m.debit, m.credit from journal_month m
      where m.workspace_id = ${ws}::uuid and m.month < ${monthsEnd}::date
        ${monthsStart === undefined ? sql`` : sql`and m.month >= ${monthsStart}::date`} ${onlyAccount(sql`m.account_code`)}`;
    const edges = [];
    if (from !== undefined && monthsStart !== undefined && from < monthsStart) {
      edges.push(sql`(e.entry_date >= ${from}::date and e.entry_date < ${monthsStart}::date)`);
    }
    if (monthsEnd <= to) edges.push(sql`(e.entry_date >= ${monthsEnd}::date and e.entry_date <= ${to}::date)`);
    lines = edges.length ? sql`(${sql.join(edges, sql` or `)})` : sql`false`;
  }
  const partial = sql`select l.account_code, l.debit, l.credit from journal_entry e
    join journal_line l on l.workspace_id = e.workspace_id and l.entry_id = e.id
    where e.workspace_id = ${ws}::uuid and l.workspace_id = ${ws}::uuid and ${lines} ${onlyAccount(sql`l.account_code`)}`;
  return sql`select x.account_code, sum(x.debit) as debit, sum(x.credit) as credit
    from (${months ? sql`${months} union all ` : sql``}${partial}) x group by x.account_code`;
}

// A journal line leads to the document that posted it; manual journals, closes and GST settlements to their entry.
export function sourceDrill(row: {
  source_type: string | null;
  source_id: number | string | null;
  entry_id: number | string;
  number: string | null;
}): ReportDrill {
  if (
    row.source_type &&
    row.source_id != null &&
    row.source_type !== "journal_entry" &&
    isNumberedType(row.source_type)
  ) {
    return { document: { type: row.source_type, id: Number(row.source_id), number: row.number } };
  }
  return { document: { type: "journal_entry", id: Number(row.entry_id), number: row.number } };
}

// The account rows of a report, each on its natural side, drilling into the general ledger of the same period.
export const ledgerDrill = (account: string, from: string | undefined, to: string | undefined): ReportDrill => ({
  report: "general_ledger",
  params: { account, ...(from ? { from } : {}), ...(to ? { to } : {}) },
});

export type AccountRow = {
  account_code: string;
  account: string;
  root: string;
  type: string;
  contra: boolean;
};
