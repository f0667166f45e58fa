import { money, sum } from "@workmetrics/domain/documents/decimal";
import { REPORT_ACCESS, type ReportDrill } from "@workmetrics/domain/reports";
import type Decimal from "decimal.js";
import { sql } from "drizzle-orm";
import type { Tx } from "../../../platform/db/database.ts";
import { today } from "../../../platform/documents/store.ts";
import { defineReport } from "../registry.ts";
import { accountSums, ledgerDrill, naturalSign, period } from "./ledger-sql.ts";

// DESIGN §2.3.1 `report {name: "profit_and_loss", from, to}`: the period's income, cost of sales and expenses by
// account (income credit-positive, expenses debit-positive; Sales Returns, a contra income account, shows negative),
// with section subtotals, gross profit and net profit. Totals {income, cogs, expenses, net_profit}: expenses include
// the cost of sales, so net_profit = income − expenses. Year-end close entries are left out (they only move the
// profit to retained earnings). `from` defaults to the start of the financial year holding `to` (books settings).

type Line = { account_code: string; account: string; section: Section; amount: string };
type Section = "income" | "cogs" | "expenses";

const SECTIONS: Record<Section, { label: string; total: string }> = {
  income: { label: "Income", total: "Total income" },
  cogs: { label: "Cost of sales", total: "Total cost of sales" },
  expenses: { label: "Expenses", total: "Total expenses" },
};

// The first day of the financial year `day` falls in (books_settings.fy_start_month, January when unset).
export async function yearStart(tx: Tx, ws: string, day: string): Promise<string> {
  const res = await tx.execute(sql`select fy_start_month as m from books_settings where workspace_id = ${ws}::uuid
    order by id limit 1`);
  const month = Number((res.rows[0] as { m?: number } | undefined)?.m ?? 1);
  const [y, m] = day.split("-").map(Number);
  const year = m >= month ? y : y - 1;
  return `${year}-${String(month).padStart(2, "0")}-01`;
}

export async function profitLines(tx: Tx, ws: string, from: string | undefined, to: string): Promise<Line[]> {
  // The period's sums less the year-end close entries in it (a handful of lines), income and expense accounts only.
  const res = await tx.execute(sql`with p as (${accountSums(ws, { from, to })}), c as (
      select l.account_code, sum(l.debit - l.credit) as dr
      from year_end_close y
      join journal_entry e on e.workspace_id = y.workspace_id and (e.id = y.entry_id or e.reversal_of = y.entry_id)
      join journal_line l on l.workspace_id = e.workspace_id and l.entry_id = e.id
      where y.workspace_id = ${ws}::uuid and e.workspace_id = ${ws}::uuid and l.workspace_id = ${ws}::uuid
        and e.entry_date <= ${to}::date ${from ? sql`and e.entry_date >= ${from}::date` : sql``}
      group by l.account_code
    ), m as (
      select p.account_code, p.debit - p.credit - coalesce(c.dr, 0) as dr
      from p left join c on c.account_code = p.account_code
    )
    select a.code as account_code, a.name as account,
      case when a.root = 'income' then 'income' when a.type = 'cogs' then 'cogs' else 'expenses' end as section,
      (${naturalSign(sql`a.root`)} * m.dr)::numeric(16,2)::text as amount
    from m join account a on a.workspace_id = ${ws}::uuid and a.code = m.account_code
    where m.dr <> 0 and a.root in ('income', 'expense')
    order by a.code`);
  return res.rows as Line[];
}

export const profitAndLoss = defineReport({
  name: "profit_and_loss",
  params: period,
  need: REPORT_ACCESS.profit_and_loss,
  async run(tx, p, caller) {
    const ws = caller.workspaceId;
    const to = p.to ?? (await today(tx));
    const from = p.from ?? (await yearStart(tx, ws, to));
    const lines = await profitLines(tx, ws, from, to);
    const of = (s: Section) => sum(lines.filter((l) => l.section === s).map((l) => l.amount));
    const income = of("income");
    const cogs = of("cogs");
    const other = of("expenses");
    const expenses = cogs.plus(other);
    const gross = income.minus(cogs);
    const net = income.minus(expenses);

    const rows: Record<string, string | number | null>[] = [];
    const drill: (ReportDrill | null)[] = [];
    // `line` identifies a row for the comparison with another period: the account code, or the subtotal's name.
    const subtotal = (line: string, label: string, amount: Decimal, kind: "subtotal" | "total", section: string) => {
      rows.push({ line, row_kind: kind, section, account_code: null, account: label, amount: money(amount) });
      drill.push(null);
    };
    for (const s of ["income", "cogs", "expenses"] as const) {
      for (const l of lines.filter((x) => x.section === s)) {
        rows.push({ line: l.account_code, row_kind: "account", ...l, section: SECTIONS[s].label });
        drill.push(ledgerDrill(l.account_code, from, to));
      }
      subtotal(`total_${s}`, SECTIONS[s].total, of(s), "subtotal", SECTIONS[s].label);
      if (s === "cogs") subtotal("gross_profit", "Gross profit", gross, "subtotal", SECTIONS[s].label);
    }
    subtotal("net_profit", "Net profit", net, "total", "Net profit");
    return {
      columns: [
        { key: "section", label: "Section", kind: "text" },
        { key: "account_code", label: "Code", kind: "text" },
        { key: "account", label: "Account", kind: "text" },
        { key: "amount", label: "Amount", kind: "money" },
      ],
      rows,
      totals: {
        income: money(income),
        cogs: money(cogs),
        gross_profit: money(gross),
        expenses: money(expenses),
        net_profit: money(net),
        from,
        to,
      },
      key: "line",
      drill,
    };
  },
});
