import { AP_AGEING_BUCKETS, REPORT_ACCESS, type ReportColumn } from "@workmetrics/domain/reports";
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../platform/db/database.ts";
import { today } from "../../platform/documents/store.ts";
import { moneySql as money } from "./analytics/shared.ts";
import { type AgeingRow, shape } from "./ar-ageing.report.ts";
import { refreshOverdue } from "./overdue.ts";
import { defineReport } from "./registry.ts";

// Issue 11 "Accounts payable": what the workspace owes each supplier on `as_of`, in base currency, aged 0–30 /
// 31–60 / 61–90 / 90+ days past due (AP_AGEING_BUCKETS; not yet due counts in 0–30), with what is not yet due,
// overdue, and due this week (due from `as_of` to six days after it) beside. A supplier invoice counts when it is
// dated on or before `as_of` and neither draft nor cancelled; what it owed then is today's outstanding plus what
// supplier payments dated after `as_of` paid on it. With `company_id`: one row per open invoice of that supplier
// (the drill-down); with `due: "this_week"`: every invoice due this week, whoever the supplier. One statement
// each; the totals are the ROLLUP row of the same grouping.

const params = z.object({
  as_of: z.iso.date().optional(),
  company_id: z.number().int().positive().optional(),
  due: z.literal("this_week").optional(),
});

const bucketSums = () =>
  AP_AGEING_BUCKETS.map((b) => {
    const lo = b.min === null ? sql`true` : sql`o.days >= ${b.min}`;
    const hi = b.max === null ? sql`true` : sql`o.days <= ${b.max}`;
    return sql`${money(sql`sum(o.amount) filter (where ${lo} and ${hi})`)} as ${sql.identifier(b.key)}`;
  });

const FIGURES = () => [
  ...bucketSums(),
  sql`${money(sql`sum(o.amount) filter (where o.days <= 0)`)} as not_due`,
  sql`${money(sql`sum(o.amount) filter (where o.days > 0)`)} as overdue`,
  sql`${money(sql`sum(o.amount) filter (where o.days between -6 and 0)`)} as due_this_week`,
  sql`${money(sql`sum(o.amount)`)} as total`,
];

const FIGURE_KEYS = [...AP_AGEING_BUCKETS.map((b) => b.key), "not_due", "overdue", "due_this_week", "total"];

const BUCKET_COLUMNS: ReportColumn[] = AP_AGEING_BUCKETS.map((b) => ({ key: b.key, label: b.label, kind: "money" }));

// The workspace's supplier invoices open on `asOf`, each with its base-currency amount and days past due.
function openInvoices(ws: string, asOf: string, where: SQL): SQL {
  return sql`with later as (
      select a.document_id, sum(a.amount) as amount
      from payment_allocation a
      join supplier_payment p on p.workspace_id = a.workspace_id and p.id = a.payment_id
      where a.workspace_id = ${ws}::uuid and a.payment_type = 'supplier_payment'
        and a.document_type = 'supplier_invoice' and p.doc_date > ${asOf}::date
      group by a.document_id
    ), o as (
      select i.id, i.number, i.supplier_invoice_number, i.company_id, i.doc_date, i.due_date, i.status,
        i.match_status, round((i.outstanding + coalesce(l.amount, 0)) * i.rate, 2) as amount,
        (${asOf}::date - coalesce(i.due_date, i.doc_date)) as days
      from supplier_invoice i left join later l on l.document_id = i.id
      where i.workspace_id = ${ws}::uuid and i.doc_date <= ${asOf}::date and i.status not in ('draft', 'cancelled')
        and (i.outstanding > 0 or l.document_id is not null) ${where}
    )`;
}

const INVOICE_COLUMNS: ReportColumn[] = [
  { key: "number", label: "Invoice", kind: "text" },
  { key: "supplier_invoice_number", label: "Supplier's number", kind: "text" },
  { key: "doc_date", label: "Date", kind: "date" },
  { key: "due_date", label: "Due", kind: "date" },
  { key: "days_past_due", label: "Days past due", kind: "integer" },
];

export const apAgeing = defineReport({
  name: "ap_ageing",
  params,
  need: REPORT_ACCESS.ap_ageing,
  async run(tx: Tx, p, caller) {
    const ws = caller.workspaceId;
    await refreshOverdue(tx, ws);
    const asOf = p.as_of ?? (await today(tx));
    if (p.company_id !== undefined || p.due) {
      const where = p.company_id !== undefined ? sql`and i.company_id = ${p.company_id}` : sql``;
      const week = p.due ? sql`and o.days between -6 and 0` : sql``;
      const res = await tx.execute(sql`${openInvoices(ws, asOf, where)}
        select o.id, o.number, o.supplier_invoice_number, o.company_id, c.name as company,
          o.doc_date::text as doc_date, o.due_date::text as due_date, o.status, o.match_status,
          greatest(o.days, 0)::int as days_past_due, ${sql.join(FIGURES(), sql`, `)},
          grouping(o.id) as is_total
        from o join company c on c.workspace_id = ${ws}::uuid and c.id = o.company_id
        where o.amount > 0 ${week}
        group by rollup ((o.id, o.number, o.supplier_invoice_number, o.company_id, c.name, o.doc_date, o.due_date,
          o.status, o.match_status, o.days))
        order by is_total, o.due_date nulls last, o.id`);
      return shape(res.rows as AgeingRow[], FIGURE_KEYS, [
        ...(p.company_id === undefined ? [{ key: "company", label: "Supplier", kind: "text" } as const] : []),
        ...INVOICE_COLUMNS,
        ...BUCKET_COLUMNS,
        { key: "total", label: "Outstanding", kind: "money" },
      ]);
    }
    const res = await tx.execute(sql`${openInvoices(ws, asOf, sql``)}
      select o.company_id, c.name as company, count(*)::int as invoices, min(o.due_date)::text as oldest_due,
        ${sql.join(FIGURES(), sql`, `)}, grouping(o.company_id) as is_total
      from o join company c on c.workspace_id = ${ws}::uuid and c.id = o.company_id
      where o.amount > 0
      group by rollup ((o.company_id, c.name))
      order by is_total, c.name, o.company_id`);
    return shape(res.rows as AgeingRow[], FIGURE_KEYS, [
      { key: "company", label: "Supplier", kind: "text" },
      { key: "invoices", label: "Invoices", kind: "integer" },
      { key: "oldest_due", label: "Oldest due", kind: "date" },
      ...BUCKET_COLUMNS,
      { key: "due_this_week", label: "Due this week", kind: "money" },
      { key: "total", label: "Outstanding", kind: "money" },
    ]);
  },
});
