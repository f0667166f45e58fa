import { REPORT_ACCESS } from "@workmetrics/domain/reports";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { defineReport } from "./registry.ts";

// DESIGN §2.3.1 `sales_by_customer` / `sales_by_product`: what was invoiced between `from` and `to` (submitted
// invoices, not cancelled), in base currency, before tax (net) and with it (customer report). Aggregated in SQL with
// a ROLLUP for the totals.

const period = z
  .object({ from: z.iso.date(), to: z.iso.date() })
  .refine((p) => p.from <= p.to, { message: "The report's from date is after its to date", path: ["from"] });

const m = (e: ReturnType<typeof sql>) => sql`coalesce(${e}, 0)::numeric(14,2)::text`;

type Row = Record<string, string | number | null> & { is_total: number | string };

function split(all: Row[], keys: string[]) {
  const total = all.find((r) => Number(r.is_total) === 1);
  const rows = all.filter((r) => Number(r.is_total) !== 1).map(({ is_total: _, ...r }) => r);
  return { rows, totals: Object.fromEntries(keys.map((k) => [k, total?.[k] ?? (k === "invoices" ? 0 : "0.00")])) };
}

export const salesByCustomer = defineReport({
  name: "sales_by_customer",
  params: period,
  need: REPORT_ACCESS.sales_by_customer,
  async run(tx, p, caller) {
    const res = await tx.execute(sql`select i.company_id, c.name as company, count(*)::int as invoices,
        ${m(sql`sum(round(i.net_total * i.rate, 2))`)} as net, ${m(sql`sum(i.base_total)`)} as total,
        grouping(i.company_id) as is_total
      from invoice i join company c on c.workspace_id = i.workspace_id and c.id = i.company_id
      where i.workspace_id = ${caller.workspaceId}::uuid and i.status not in ('draft', 'cancelled')
        and i.doc_date between ${p.from}::date and ${p.to}::date
      group by rollup ((i.company_id, c.name))
      order by is_total, sum(i.base_total) desc, i.company_id`);
    const { rows, totals } = split(res.rows as Row[], ["invoices", "net", "total"]);
    return {
      columns: [
        { key: "company", label: "Customer", kind: "text" },
        { key: "invoices", label: "Invoices", kind: "integer" },
        { key: "net", label: "Net", kind: "money" },
        { key: "total", label: "Total", kind: "money" },
      ],
      rows,
      totals,
    };
  },
});

export const salesByProduct = defineReport({
  name: "sales_by_product",
  params: period,
  need: REPORT_ACCESS.sales_by_product,
  async run(tx, p, caller) {
    const res = await tx.execute(sql`select l.product_id, coalesce(pr.name, min(l.description)) as product,
        min(l.sku) as sku, sum(l.qty)::text as qty, ${m(sql`sum(round(l.net_amount * i.rate, 2))`)} as net,
        grouping(l.product_id) as is_total
      from invoice_line l
      join invoice i on i.workspace_id = l.workspace_id and i.id = l.invoice_id
      left join product pr on pr.workspace_id = l.workspace_id and pr.id = l.product_id
      where l.workspace_id = ${caller.workspaceId}::uuid and i.status not in ('draft', 'cancelled')
        and i.doc_date between ${p.from}::date and ${p.to}::date and l.product_id is not null
      group by rollup ((l.product_id, pr.name))
      order by is_total, sum(round(l.net_amount * i.rate, 2)) desc, l.product_id`);
    const { rows, totals } = split(res.rows as Row[], ["net"]);
    return {
      columns: [
        { key: "product", label: "Product", kind: "text" },
        { key: "sku", label: "SKU", kind: "text" },
        { key: "qty", label: "Quantity", kind: "text" },
        { key: "net", label: "Net sales", kind: "money" },
      ],
      rows,
      totals,
    };
  },
});
