import { isNumberedType } from "@workmetrics/domain/documents/numbering";
import type { ReportDrill } from "@workmetrics/domain/reports";
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../../platform/db/database.ts";

// What the financial reports share: the period parameters, the natural sign of an account, the year-end close
// entries the P&L leaves out, and where a journal line leads. Every figure is summed in SQL (group by account) over
// the workspace's own lines; nothing loads the ledger into Node.

export const isoDate = z.iso.date();

export const period = z
  .object({ from: isoDate.optional(), to: isoDate.optional() })
  .refine((p) => !p.from || !p.to || p.from <= p.to, { message: "The period must start on or before it ends" });

// Balances show on the account's natural side: assets and expenses debit-positive, liabilities, equity and income
// credit-positive. A contra account (Sales Returns under income) keeps its root's side, so it shows negative and
// lowers its section, as it should.
export const naturalSign = (root: SQL) => sql`(case when ${root} in ('asset', 'expense') then 1 else -1 end)`;

// The entries of a year-end close (and the reversal of a reopened one) move the year's profit to retained earnings;
// a P&L leaves them out, or a closed year would show nothing. The balance sheet and the trial balance keep them.
export const closingEntry = (ws: string, e: SQL) => sql`exists (select 1 from year_end_close c
  where c.workspace_id = ${ws}::uuid and (c.entry_id = ${e}.id or c.entry_id = ${e}.reversal_of))`;

export const money = (e: SQL) => sql`coalesce(${e}, 0)::numeric(16,2)::text`;

// The day before an ISO date, and the day after (period openings; the profit since the last close).
export function shiftDay(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export async function today(tx: Tx): Promise<string> {
  return ((await tx.execute(sql`select current_date::text as d`)).rows[0] as { d: string }).d;
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
