import { money, sum } from "@workmetrics/domain/documents/decimal";
import { REPORT_ACCESS, type ReportDrill } from "@workmetrics/domain/reports";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../../platform/db/database.ts";
import { today } from "../../../platform/documents/store.ts";
import { defineReport } from "../registry.ts";
import { accountSums, isoDate, ledgerDrill, naturalSign, shiftDay } from "./ledger-sql.ts";

// DESIGN §2.3.1 `report {name: "balance_sheet", as_of}`: assets, liabilities and equity by account on `as_of`, each
// on its natural side, and in equity the "Current period profit": every income and expense balance on that day, i.e.
// the profit not yet moved to retained earnings by a year-end close (after a close those accounts are zero for the
// closed year and its profit sits in 3100). Totals {assets, liabilities, equity}, equity including that profit, so
// assets = liabilities + equity on any date: the trial balance of the same lines balances. One statement.

const params = z.object({ as_of: isoDate.optional() });

type Row = { account_code: string; account: string; root: string; balance: string };

const SECTIONS = [
  { root: "asset", label: "Assets", total: "Total assets", line: "total_assets" },
  { root: "liability", label: "Liabilities", total: "Total liabilities", line: "total_liabilities" },
  { root: "equity", label: "Equity", total: "Total equity", line: "total_equity" },
] as const;

// Where the current period's profit starts: the day after the last year-end close on or before `asOf` (its P&L is
// what that row holds), else the workspace's first posting.
async function profitSince(tx: Tx, ws: string, asOf: string): Promise<string | undefined> {
  const res = await tx.execute(sql`select
      (select max(c.year_end) from year_end_close c where c.workspace_id = ${ws}::uuid and c.reopened_at is null
        and c.year_end <= ${asOf}::date)::text as closed,
      (select min(e.entry_date) from journal_entry e where e.workspace_id = ${ws}::uuid)::text as first`);
  const r = res.rows[0] as { closed: string | null; first: string | null };
  return r.closed ? shiftDay(r.closed, 1) : (r.first ?? undefined);
}

export async function balances(tx: Tx, ws: string, asOf: string): Promise<{ rows: Row[]; profit: string }> {
  const res = await tx.execute(sql`with m as (
      select s.account_code, s.debit - s.credit as dr from (${accountSums(ws, { to: asOf })}) s
    )
    select a.code as account_code, a.name as account, a.root,
      (${naturalSign(sql`a.root`)} * m.dr)::numeric(16,2)::text as balance
    from m join account a on a.workspace_id = ${ws}::uuid and a.code = m.account_code
    where m.dr <> 0
    order by a.code`);
  const all = res.rows as Row[];
  const pl = all.filter((r) => r.root === "income" || r.root === "expense");
  // Income is credit-positive and expenses debit-positive: profit = income − expenses.
  const profit = money(
    sum(pl.filter((r) => r.root === "income").map((r) => r.balance)).minus(
      sum(pl.filter((r) => r.root === "expense").map((r) => r.balance)),
    ),
  );
  return { rows: all.filter((r) => !pl.includes(r)), profit };
}

export const balanceSheet = defineReport({
  name: "balance_sheet",
  params,
  need: REPORT_ACCESS.balance_sheet,
  async run(tx, p, caller) {
    const ws = caller.workspaceId;
    const asOf = p.as_of ?? (await today(tx));
    const { rows: accounts, profit } = await balances(tx, ws, asOf);
    const since = await profitSince(tx, ws, asOf);

    const rows: Record<string, string | number | null>[] = [];
    const drill: (ReportDrill | null)[] = [];
    const totals: Record<string, string> = {};
    for (const s of SECTIONS) {
      const mine = accounts.filter((r) => r.root === s.root);
      for (const r of mine) {
        rows.push({ line: r.account_code, row_kind: "account", section: s.label, ...r });
        drill.push(ledgerDrill(r.account_code, undefined, asOf));
      }
      const amounts = mine.map((r) => r.balance);
      if (s.root === "equity") {
        rows.push({
          line: "current_profit",
          row_kind: "account",
          section: s.label,
          account_code: null,
          account: "Current period profit",
          root: "equity",
          balance: profit,
        });
        drill.push({ report: "profit_and_loss", params: { ...(since ? { from: since } : {}), to: asOf } });
        amounts.push(profit);
      }
      const total = money(sum(amounts));
      totals[s.label.toLowerCase()] = total;
      rows.push({
        line: s.line,
        row_kind: "subtotal",
        section: s.label,
        account_code: null,
        account: s.total,
        balance: total,
      });
      drill.push(null);
    }
    const liabilitiesAndEquity = money(sum([totals.liabilities, totals.equity]));
    rows.push({
      line: "total_liabilities_and_equity",
      row_kind: "total",
      section: "Liabilities and equity",
      account_code: null,
      account: "Total liabilities and equity",
      balance: liabilitiesAndEquity,
    });
    drill.push(null);
    return {
      columns: [
        { key: "section", label: "Section", kind: "text" },
        { key: "account_code", label: "Code", kind: "text" },
        { key: "account", label: "Account", kind: "text" },
        { key: "balance", label: "Balance", kind: "money" },
      ],
      rows,
      totals: {
        assets: totals.assets,
        liabilities: totals.liabilities,
        equity: totals.equity,
        current_profit: profit,
        liabilities_and_equity: liabilitiesAndEquity,
        as_of: asOf,
      },
      key: "line",
      drill,
    };
  },
});
