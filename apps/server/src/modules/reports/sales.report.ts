import { REPORT_ACCESS } from "@workmetrics/domain/reports";
import { sql } from "drizzle-orm";
import { z } from "zod";
import {
  docDrill,
  docScope,
  idParam,
  moneySql as m,
  narrowedDrill,
  period,
  type RollupRow,
  readsAll,
  splitTotals,
} from "./analytics/shared.ts";
import { defineReport } from "./registry.ts";

// DESIGN §2.3.1 `sales_by_customer` / `sales_by_product`: what was sold (issue 22: at the counter too) and invoiced between `from` and `to` (submitted
// invoices, not cancelled), in base currency, before tax (net) and with it (customer report). Aggregated in SQL with
// a ROLLUP for the totals. Issue 12: analytics (Pro); a member who reads only their own invoices sums only those;
// each row drills to the invoices behind it (`company_id` / `product_id`), and each invoice to its page.

const byCustomer = z.intersection(period, z.object({ company_id: idParam.optional() }));
const byProduct = z.intersection(period, z.object({ product_id: idParam.optional() }));

// Issue 22: the point of sale's orders count too (refunds negative), at their customer or, without one, as walk-in
// sales; a POS order is in SGD, the base currency, and its net is its total less the GST in it.
const WALK_IN = "Walk-in (point of sale)";

export const salesByCustomer = defineReport({
  name: "sales_by_customer",
  params: byCustomer,
  need: REPORT_ACCESS.sales_by_customer,
  async run(tx, p, caller) {
    const scope = docScope(caller, "invoice", "i");
    const where = sql`i.workspace_id = ${caller.workspaceId}::uuid and ${scope}
      and i.status not in ('draft', 'cancelled') and i.doc_date between ${p.from}::date and ${p.to}::date`;
    const pos = readsAll(caller, "pos_order");
    const posWhere = sql`o.workspace_id = ${caller.workspaceId}::uuid
      and o.doc_date between ${p.from}::date and ${p.to}::date`;
    if (p.company_id !== undefined) {
      const posRows = pos
        ? sql`union all select 'pos_order', o.id, o.number, o.doc_date, o.status, o.net_total, o.total
            from pos_order o where ${posWhere} and o.company_id = ${p.company_id}`
        : sql``;
      const res = await tx.execute(sql`select d.type, d.id, d.number, d.doc_date::text as doc_date, d.status,
          ${m(sql`sum(d.net)`)} as net, ${m(sql`sum(d.total)`)} as total, grouping(d.id) as is_total
        from (select 'invoice' as type, i.id, i.number, i.doc_date, i.status, round(i.net_total * i.rate, 2) as net,
            i.base_total as total
          from invoice i where ${where} and i.company_id = ${p.company_id}
          ${posRows}) d
        group by rollup ((d.type, d.id, d.number, d.doc_date, d.status))
        order by is_total, d.doc_date, d.type, d.id`);
      const { rows, totals } = splitTotals(res.rows as RollupRow[], ["net", "total"]);
      return {
        columns: [
          { key: "number", label: "Document", kind: "text" },
          { key: "doc_date", label: "Date", kind: "date" },
          { key: "net", label: "Net", kind: "money" },
          { key: "total", label: "Total", kind: "money" },
        ],
        rows,
        totals,
        key: "id",
        drill: rows.map((r) => docDrill(String(r.type), r.id, r.number)),
      };
    }
    const posRows = pos
      ? sql`union all select o.company_id, 0, 1, o.net_total, o.total from pos_order o where ${posWhere}`
      : sql``;
    const res = await tx.execute(sql`select d.company_id, coalesce(c.name, ${WALK_IN}) as company,
        sum(d.invoices)::int as invoices, sum(d.pos_orders)::int as pos_orders,
        ${m(sql`sum(d.net)`)} as net, ${m(sql`sum(d.total)`)} as total, grouping(d.company_id) as is_total
      from (select i.company_id, 1 as invoices, 0 as pos_orders, round(i.net_total * i.rate, 2) as net,
          i.base_total as total
        from invoice i where ${where}
        ${posRows}) d
      left join company c on c.workspace_id = ${caller.workspaceId}::uuid and c.id = d.company_id
      group by rollup ((d.company_id, c.name))
      order by is_total, sum(d.total) desc, d.company_id nulls last`);
    const { rows, totals } = splitTotals(res.rows as RollupRow[], ["invoices", "pos_orders", "net", "total"]);
    const drill = narrowedDrill("sales_by_customer", p, "company_id");
    return {
      columns: [
        { key: "company", label: "Customer", kind: "text" },
        { key: "invoices", label: "Invoices", kind: "integer" },
        ...(pos ? [{ key: "pos_orders", label: "POS orders", kind: "integer" as const }] : []),
        { key: "net", label: "Net", kind: "money" },
        { key: "total", label: "Total", kind: "money" },
      ],
      rows,
      totals,
      key: "company_id",
      // Walk-in sales have no customer to narrow to.
      drill: rows.map((r) => (r.company_id == null ? null : drill(r))),
    };
  },
});

export const salesByProduct = defineReport({
  name: "sales_by_product",
  params: byProduct,
  need: REPORT_ACCESS.sales_by_product,
  async run(tx, p, caller) {
    const scope = docScope(caller, "invoice", "i");
    const where = sql`l.workspace_id = ${caller.workspaceId}::uuid and ${scope}
      and i.status not in ('draft', 'cancelled') and i.doc_date between ${p.from}::date and ${p.to}::date`;
    if (p.product_id !== undefined) {
      const res = await tx.execute(sql`select i.id, i.number, i.doc_date::text as doc_date, c.name as company,
          sum(l.qty)::text as qty, ${m(sql`sum(round(l.net_amount * i.rate, 2))`)} as net, grouping(i.id) as is_total
        from invoice_line l
        join invoice i on i.workspace_id = l.workspace_id and i.id = l.invoice_id
        join company c on c.workspace_id = i.workspace_id and c.id = i.company_id
        where ${where} and l.product_id = ${p.product_id}
        group by rollup ((i.id, i.number, i.doc_date, c.name))
        order by is_total, i.doc_date, i.id`);
      const { rows, totals } = splitTotals(res.rows as RollupRow[], ["qty", "net"]);
      return {
        columns: [
          { key: "number", label: "Invoice", kind: "text" },
          { key: "doc_date", label: "Date", kind: "date" },
          { key: "company", label: "Customer", kind: "text" },
          { key: "qty", label: "Quantity", kind: "text" },
          { key: "net", label: "Net sales", kind: "money" },
        ],
        rows,
        totals,
        key: "id",
        drill: rows.map((r) => docDrill("invoice", r.id, r.number)),
      };
    }
    // Issue 22: the point of sale's lines count too (refunds negative), each line's net the GST-inclusive amount less
    // the 9/109 of it a standard-rated line holds (the order's GST is rounded once, so cents may differ per line).
    const pos = readsAll(caller, "pos_order")
      ? sql`union all select l.workspace_id, l.product_id, l.description, l.sku, l.qty,
          case when l.tax_code = 'SR' then round(l.line_total * 100 / 109, 2) else l.line_total end
        from pos_order_line l join pos_order o on o.workspace_id = l.workspace_id and o.id = l.pos_order_id
        where l.workspace_id = ${caller.workspaceId}::uuid and o.doc_date between ${p.from}::date and ${p.to}::date`
      : sql``;
    const res = await tx.execute(sql`select l.product_id, coalesce(pr.name, min(l.description)) as product,
        min(l.sku) as sku, sum(l.qty)::text as qty, ${m(sql`sum(l.net)`)} as net,
        grouping(l.product_id) as is_total
      from (select l.workspace_id, l.product_id, l.description, l.sku, l.qty, round(l.net_amount * i.rate, 2) as net
          from invoice_line l
          join invoice i on i.workspace_id = l.workspace_id and i.id = l.invoice_id
          where ${where} and l.product_id is not null
        ${pos}) l
      left join product pr on pr.workspace_id = l.workspace_id and pr.id = l.product_id
      group by rollup ((l.product_id, pr.name))
      order by is_total, sum(l.net) desc, l.product_id`);
    const { rows, totals } = splitTotals(res.rows as RollupRow[], ["net"]);
    return {
      columns: [
        { key: "product", label: "Product", kind: "text" },
        { key: "sku", label: "SKU", kind: "text" },
        { key: "qty", label: "Quantity", kind: "text" },
        { key: "net", label: "Net sales", kind: "money" },
      ],
      rows,
      totals,
      key: "product_id",
      drill: rows.map(narrowedDrill("sales_by_product", p, "product_id")),
    };
  },
});
