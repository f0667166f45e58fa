import { money, sum } from "@workmetrics/domain/documents/decimal";
import { REPORT_ACCESS } from "@workmetrics/domain/reports";
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Caller } from "../../../platform/rest/access.ts";
import { defineReport } from "../registry.ts";
import { salespersonOf } from "./salesperson.ts";
import {
  docDrill,
  docScope,
  moneySql as m,
  narrowedDrill,
  period,
  type RollupRow,
  readsAll,
  splitTotals,
} from "./shared.ts";

// Issue 12 "Sales": sales by salesperson and by month, net of credit notes, in base currency, before tax. A sale is
// a submitted invoice (not cancelled) dated in the period; a credit note issued in the period lowers the sales of
// the month it is dated in and of the salesperson of the invoice it credits, and a debit note raises them (issue 21
// §1: one definition of net sales — excluding GST, after credit and debit notes — as the P&L's income and the
// dashboard count it). Who sold it: salespersonOf (the one
// rule commission and the team challenge follow too). A member who reads only their own invoices sees only those.

// Invoices and credit notes in the period as signed entries: date, who sold, net and gross in base currency.
function entries(ws: string, p: { from: string; to: string }, caller: Caller): SQL {
  const invoices = docScope(caller, "invoice", "i");
  // A note on no invoice is counted for whoever reads every invoice; one on an invoice, for whoever reads that invoice.
  const unlinked = (alias: string) =>
    readsAll(caller, "invoice") ? sql.raw(`${alias}.invoice_id is null`) : sql`false`;
  return sql`e as (
      select i.doc_date as date, ${salespersonOf("invoice", "i")} as seller, 'invoice' as kind, round(i.net_total * i.rate, 2) as net,
        i.base_total as gross
      from invoice i
      where i.workspace_id = ${ws}::uuid and ${invoices} and i.status not in ('draft', 'cancelled')
        and i.doc_date between ${p.from}::date and ${p.to}::date
      union all
      select c.doc_date, ${salespersonOf("credit_note", "c")}, 'credit_note', -round(c.net_total * c.rate, 2),
        -c.base_total
      from credit_note c left join invoice i on i.workspace_id = c.workspace_id and i.id = c.invoice_id
      where c.workspace_id = ${ws}::uuid and c.status = 'issued'
        and c.doc_date between ${p.from}::date and ${p.to}::date
        and (${unlinked("c")} or (i.id is not null and ${invoices}))
      union all
      -- Issue 21 §1: a debit note bills more (income, as the P&L counts it): the salesperson's of the invoice it adds to.
      select d.doc_date, ${salespersonOf("credit_note", "d")}, 'debit_note', round(d.net_total * d.rate, 2), d.base_total
      from debit_note d left join invoice i on i.workspace_id = d.workspace_id and i.id = d.invoice_id
      where d.workspace_id = ${ws}::uuid and d.status not in ('draft', 'cancelled')
        and d.doc_date between ${p.from}::date and ${p.to}::date
        and (${unlinked("d")} or (i.id is not null and ${invoices}))
      ${
        // Issue 22: the point of sale's orders (refunds negative), sold by the cashier, for whoever reads them all.
        readsAll(caller, "pos_order")
          ? sql`union all
      select o.doc_date, o.created_by, 'pos_order', o.net_total, o.total
      from pos_order o where o.workspace_id = ${ws}::uuid and o.doc_date between ${p.from}::date and ${p.to}::date`
          : sql``
      }
    )`;
}

const FIGURES = sql`count(*) filter (where e.kind = 'invoice')::int as invoices,
  ${m(sql`sum(e.net) filter (where e.kind = 'invoice')`)} as invoiced,
  ${m(sql`-sum(e.net) filter (where e.kind = 'credit_note')`)} as credited,
  ${m(sql`sum(e.net) filter (where e.kind = 'debit_note')`)} as debited,
  ${m(sql`sum(e.net)`)} as net_sales, ${m(sql`sum(e.gross)`)} as total`;

const FIGURE_COLUMNS = [
  { key: "invoices", label: "Invoices", kind: "integer" },
  { key: "invoiced", label: "Invoiced (net)", kind: "money" },
  { key: "credited", label: "Credited (net)", kind: "money" },
  { key: "debited", label: "Debited (net)", kind: "money" },
  { key: "net_sales", label: "Net sales (excl. GST)", kind: "money" },
  { key: "total", label: "Total with GST", kind: "money" },
] as const;

const FIGURE_KEYS = FIGURE_COLUMNS.map((c) => c.key);

export const salesBySalesperson = defineReport({
  name: "sales_by_salesperson",
  params: z.intersection(period, z.object({ user_id: z.uuid().optional() })),
  need: REPORT_ACCESS.sales_by_salesperson,
  async run(tx, p, caller) {
    const ws = caller.workspaceId;
    if (p.user_id) {
      // One salesperson's invoices and credit notes in the period, each opening its document.
      const invoices = docScope(caller, "invoice", "i");
      const res = await tx.execute(sql`select * from (
          select 'invoice' as type, i.id, i.number, i.doc_date::text as doc_date, co.name as company,
            round(i.net_total * i.rate, 2)::numeric(14,2)::text as net_sales
          from invoice i join company co on co.workspace_id = i.workspace_id and co.id = i.company_id
          where i.workspace_id = ${ws}::uuid and ${invoices} and i.status not in ('draft', 'cancelled')
            and ${salespersonOf("invoice", "i")} = ${p.user_id}::uuid and i.doc_date between ${p.from}::date and ${p.to}::date
          union all
          select 'credit_note', c.id, c.number, c.doc_date::text, co.name,
            (-round(c.net_total * c.rate, 2))::numeric(14,2)::text
          from credit_note c join company co on co.workspace_id = c.workspace_id and co.id = c.company_id
            left join invoice i on i.workspace_id = c.workspace_id and i.id = c.invoice_id
          where c.workspace_id = ${ws}::uuid and c.status = 'issued'
            and ${salespersonOf("credit_note", "c")} = ${p.user_id}::uuid
            and (i.id is null or ${invoices}) and c.doc_date between ${p.from}::date and ${p.to}::date
        ) d order by d.doc_date, d.type desc, d.id`);
      const rows = res.rows as Array<Record<string, string | number | null>>;
      return {
        columns: [
          { key: "number", label: "Document", kind: "text" },
          { key: "doc_date", label: "Date", kind: "date" },
          { key: "company", label: "Customer", kind: "text" },
          { key: "net_sales", label: "Net sales", kind: "money" },
        ],
        rows,
        totals: { net_sales: money(sum(rows.map((r) => String(r.net_sales)))), count: rows.length },
        key: "number",
        drill: rows.map((r) => docDrill(String(r.type), r.id, r.number)),
      };
    }
    const res = await tx.execute(sql`with ${entries(ws, p, caller)}
      select e.seller as user_id, coalesce(u.name, 'Not recorded') as salesperson, ${FIGURES},
        grouping(e.seller) as is_total
      from e left join "user" u on u.workspace_id = ${ws}::uuid and u.id = e.seller
      group by rollup ((e.seller, u.name))
      order by is_total, sum(e.net) desc, u.name`);
    const { rows, totals } = splitTotals(res.rows as RollupRow[], FIGURE_KEYS);
    return {
      columns: [{ key: "salesperson", label: "Salesperson", kind: "text" }, ...FIGURE_COLUMNS],
      rows,
      totals,
      key: "user_id",
      drill: rows.map((r) => (r.user_id ? narrowedDrill("sales_by_salesperson", p, "user_id")(r) : null)),
    };
  },
});

// One row per calendar month of the period (months with no sales show as zero, so a chart has no gaps); a month
// drills to sales by customer over that month (within the period).
export const salesByMonth = defineReport({
  name: "sales_by_month",
  params: period,
  need: REPORT_ACCESS.sales_by_month,
  async run(tx, p, caller) {
    const ws = caller.workspaceId;
    const res = await tx.execute(sql`with ${entries(ws, p, caller)},
      months as (
        select to_char(d, 'YYYY-MM') as month,
          greatest(d::date, ${p.from}::date) as starts, least((d + interval '1 month - 1 day')::date, ${p.to}::date) as ends
        from generate_series(date_trunc('month', ${p.from}::date), date_trunc('month', ${p.to}::date), interval '1 month') d
      )
      select mo.month, min(mo.starts)::text as starts, min(mo.ends)::text as ends, ${FIGURES},
        grouping(mo.month) as is_total
      from months mo left join e on to_char(e.date, 'YYYY-MM') = mo.month
      group by rollup (mo.month)
      order by is_total, mo.month`);
    const { rows, totals } = splitTotals(res.rows as RollupRow[], FIGURE_KEYS);
    return {
      columns: [{ key: "month", label: "Month", kind: "text" }, ...FIGURE_COLUMNS],
      rows: rows.map(({ starts: _s, ends: _e, ...r }) => r),
      totals,
      drill: rows.map((r) => ({ report: "sales_by_customer", params: { from: String(r.starts), to: String(r.ends) } })),
    };
  },
});
