import { dec, money } from "@workmetrics/domain/documents/decimal";
import { REPORT_ACCESS, type ReportColumn, type ReportDrill } from "@workmetrics/domain/reports";
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../../platform/db/database.ts";
import { today } from "../../../platform/documents/store.ts";
import { RestError } from "../../../platform/rest/rest-error.ts";
import { defineReport } from "../registry.ts";
import { accountSums, BACKWARDS, isoDate, naturalSign, runsForward, shiftDay, sourceDrill } from "./ledger-sql.ts";

// DESIGN §2.3.1 `report {name: "general_ledger", account, from, to}`: one account's opening balance on `from`, then
// every journal line of the period in date order with its entry's number, the document that posted it, the memo,
// the debit, the credit and the running balance on the account's natural side. Each line drills to its document
// (a manual journal, a close or a GST settlement to its journal entry). A busy account is paged: at most `limit`
// lines from `offset` (the running balance still counts every earlier line), and a closing row says what is left.
// Totals are the whole period's: opening, debit, credit, closing and the number of lines.

export const MAX_LINES = 5000;

const params = z
  .object({
    account: z.string().trim().min(1, "Name the account by its code").max(32),
    from: isoDate.optional(),
    to: isoDate.optional(),
    limit: z.coerce.number().int().min(1).max(MAX_LINES).default(1000),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .refine(runsForward, BACKWARDS);

type Account = { code: string; name: string; root: string };

export async function findAccount(tx: Tx, ws: string, code: string): Promise<Account> {
  const res = await tx.execute(sql`select code, name, root from account
    where workspace_id = ${ws}::uuid and code = ${code}`);
  const a = res.rows[0] as Account | undefined;
  if (!a) throw new RestError(404, "PGRST116", `There is no account ${code} in this workspace's chart of accounts`);
  return a;
}

export type LedgerLine = {
  entry_id: number | string;
  entry_date: string;
  number: string | null;
  source_type: string | null;
  source_id: number | string | null;
  document: string;
  memo: string | null;
  debit: string;
  credit: string;
  balance: string;
};

// The query behind ledgerLines: the period's entries first (the date index alone), then their lines of the account
// (by entry, one index probe each: `offset 0` keeps the planner from turning it into a hash of every line the account
// ever had), so a month of a busy account reads that month's lines.
export function ledgerLinesQuery(
  ws: string,
  account: Account,
  range: { from?: string; to: string; limit: number; offset: number; opening?: string },
): SQL {
  const sign = naturalSign(sql`${account.root}::text`);
  return sql`with e as materialized (
      select id, entry_date, number, source_type, source_id, memo from journal_entry
      where workspace_id = ${ws}::uuid and entry_date <= ${range.to}::date
        ${range.from ? sql`and entry_date >= ${range.from}::date` : sql``}
    )
    select * from (
      select e.id as entry_id, e.entry_date::text as entry_date, e.number, e.source_type, e.source_id,
        case when e.source_type is null then 'Journal' else initcap(replace(e.source_type, '_', ' ')) end as document,
        coalesce(l.memo, e.memo) as memo, l.debit::text as debit, l.credit::text as credit,
        (${range.opening ?? "0"}::numeric + ${sign} * sum(l.debit - l.credit)
          over (order by e.entry_date, e.id, l.line_no rows unbounded preceding))::numeric(16,2)::text as balance,
        row_number() over (order by e.entry_date, e.id, l.line_no) as n,
        count(*) over () as total
      from e cross join lateral (select l.line_no, l.memo, l.debit, l.credit from journal_line l
        where l.workspace_id = ${ws}::uuid and l.account_code = ${account.code} and l.entry_id = e.id
        offset 0) l
    ) x where x.n > ${range.offset} order by x.n limit ${range.limit}`;
}

// The period's lines of one account, each with the document behind it, and the running balance from `opening`;
// `total` is how many lines the period has (0 when the page is past the last).
export async function ledgerLines(
  tx: Tx,
  ws: string,
  account: Account,
  range: { from?: string; to: string; limit: number; offset: number; opening?: string },
): Promise<{ lines: LedgerLine[]; total: number }> {
  const res = await tx.execute(ledgerLinesQuery(ws, account, range));
  const rows = res.rows as Array<LedgerLine & { n: unknown; total: number | string }>;
  return {
    lines: rows.map(({ n: _, total: __, ...r }) => r),
    total: rows.length ? Number(rows[0].total) : 0,
  };
}

export const LINE_COLUMNS: ReportColumn[] = [
  { key: "entry_date", label: "Date", kind: "date" },
  { key: "number", label: "Entry", kind: "text" },
  { key: "document", label: "Source", kind: "text" },
  { key: "memo", label: "Memo", kind: "text" },
  { key: "debit", label: "Debit", kind: "money" },
  { key: "credit", label: "Credit", kind: "money" },
];

export const generalLedger = defineReport({
  name: "general_ledger",
  params,
  need: REPORT_ACCESS.general_ledger,
  async run(tx, p, caller) {
    const ws = caller.workspaceId;
    const account = await findAccount(tx, ws, p.account);
    const to = p.to ?? (await today(tx));
    const sign = naturalSign(sql`${account.root}::text`);
    const none = sql`select null::text as account_code, 0::numeric as debit, 0::numeric as credit where false`;
    const opening = p.from ? accountSums(ws, { to: shiftDay(p.from, -1) }, account.code) : none;
    const sums =
      await tx.execute(sql`with o as (${opening}), m as (${accountSums(ws, { from: p.from, to }, account.code)})
      select (${sign} * coalesce((select debit - credit from o), 0))::numeric(16,2)::text as opening,
        coalesce((select debit from m), 0)::numeric(16,2)::text as debit,
        coalesce((select credit from m), 0)::numeric(16,2)::text as credit,
        (${sign} * (coalesce((select debit - credit from o), 0) + coalesce((select debit - credit from m), 0)))::numeric(16,2)::text as closing`);
    const t = sums.rows[0] as { opening: string; debit: string; credit: string; closing: string };
    const { lines, total } = await ledgerLines(tx, ws, account, {
      from: p.from,
      to,
      limit: p.limit,
      offset: p.offset,
      opening: t.opening,
    });
    // The running balance before the first line shown (the page's own opening when paging on).
    const rows: Record<string, string | number | null>[] = [
      {
        row_kind: "opening",
        entry_date: p.from ?? null,
        number: null,
        document: null,
        memo: p.offset > 0 ? `Balance brought forward (${p.offset} earlier lines)` : "Opening balance",
        debit: null,
        credit: null,
        balance: p.offset > 0 && lines.length ? broughtForward(lines[0], account.root) : t.opening,
      },
    ];
    const drill: (ReportDrill | null)[] = [null];
    for (const l of lines) {
      const { source_type, source_id, entry_id, ...shown } = l;
      rows.push({ row_kind: "line", ...shown, source_type, source_id: source_id == null ? null : Number(source_id) });
      drill.push(sourceDrill(l));
    }
    const shownTo = p.offset + lines.length;
    if (shownTo < total) {
      rows.push({
        row_kind: "note",
        entry_date: null,
        number: null,
        document: null,
        memo: `Showing lines ${p.offset + 1}–${shownTo} of ${total}: narrow the dates, or ask for the next lines (offset ${shownTo}).`,
        debit: null,
        credit: null,
        balance: null,
      });
      drill.push(null);
    }
    return {
      columns: [...LINE_COLUMNS, { key: "balance", label: "Balance", kind: "money" }],
      rows,
      totals: {
        account: account.code,
        account_name: account.name,
        opening: t.opening,
        debit: t.debit,
        credit: t.credit,
        closing: t.closing,
        lines: total,
        shown: lines.length,
      },
      key: "number",
      drill,
    };
  },
});

// The balance before a line: its running balance less its own movement on the natural side.
function broughtForward(first: LedgerLine, root: string): string {
  const moved = dec(first.debit).minus(dec(first.credit));
  return money(dec(first.balance).minus(root === "asset" || root === "expense" ? moved : moved.negated()));
}
