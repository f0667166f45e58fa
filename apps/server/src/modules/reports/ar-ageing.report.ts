import { AGEING_BUCKETS, REPORT_ACCESS, type ReportColumn } from "@workmetrics/domain/reports";
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../platform/db/database.ts";
import { today } from "../../platform/documents/store.ts";
import { receivableTypes } from "../documents/receivable.ts";
import { docDrill, moneySql as money, type RollupRow, splitTotals } from "./analytics/shared.ts";
import { refreshOverdue } from "./overdue.ts";
import { defineReport } from "./registry.ts";

// Issue 10 §2 "Accounts receivable": what each customer owes on `as_of`, by how long it is past due, in base
// currency. Every receivable counts (receivable.ts: invoices, debit notes, progressive claims — what a claim makes
// payable now, its retention held until a release claim bills it), so the ageing agrees with 1100 Trade debtors
// less the customers' unapplied credit. A document counts when it is dated on or before `as_of` and not a draft or
// cancelled; what it owed then is today's outstanding plus what receipts dated after `as_of` paid on it. Days past
// due = as_of − due date, in the buckets of AGEING_BUCKETS (Current: not yet past due; 1–30; 31–60; 61–90; over
// 90). With `company_id`, one row per open document of that customer (the drill-down, each row leading to its
// document), its amount in its bucket. One statement, aggregated in SQL over the workspace's receivables; the
// totals row is the ROLLUP of the same grouping.

const params = z.object({
  as_of: z.iso.date().optional(),
  company_id: z.number().int().positive().optional(),
});

const bucketSums = () =>
  AGEING_BUCKETS.map((b) => {
    const lo = b.min === null ? sql`true` : sql`o.days >= ${b.min}`;
    const hi = b.max === null ? sql`true` : sql`o.days <= ${b.max}`;
    return sql`${money(sql`sum(o.amount) filter (where ${lo} and ${hi})`)} as ${sql.identifier(b.key)}`;
  });

const BUCKET_COLUMNS: ReportColumn[] = AGEING_BUCKETS.map((b) => ({ key: b.key, label: b.label, kind: "money" }));

// The workspace's receivables open on `asOf`, each with its type, base-currency amount and days past due.
function openInvoices(ws: string, asOf: string, companyId: number | undefined): SQL {
  const types = receivableTypes();
  const owed = sql.join(
    types.map(
      (type) => sql`select ${type}::text as type, d.id, d.number, d.company_id, d.doc_date, d.due_date, d.status,
          d.outstanding, d.rate
        from ${sql.identifier(type)} d where d.workspace_id = ${ws}::uuid and d.doc_date <= ${asOf}::date
          and d.status not in ('draft', 'cancelled')
          ${companyId === undefined ? sql`` : sql`and d.company_id = ${companyId}`}`,
    ),
    sql` union all `,
  );
  return sql`with later as (
      select a.document_type, a.document_id, sum(a.amount) as amount
      from payment_allocation a
      join receipt r on r.workspace_id = a.workspace_id and r.id = a.payment_id
      where a.workspace_id = ${ws}::uuid and a.payment_type = 'receipt'
        and a.document_type in (${sql.join(
          types.map((t) => sql`${t}`),
          sql`, `,
        )}) and r.doc_date > ${asOf}::date
      group by a.document_type, a.document_id
    ), d as (${owed}), o as (
      select d.type, d.id, d.number, d.company_id, d.doc_date, d.due_date, d.status,
        round((d.outstanding + coalesce(l.amount, 0)) * d.rate, 2) as amount,
        (${asOf}::date - coalesce(d.due_date, d.doc_date)) as days
      from d left join later l on l.document_type = d.type and l.document_id = d.id
      where d.outstanding > 0 or l.document_id is not null
    )`;
}

export const arAgeing = defineReport({
  name: "ar_ageing",
  params,
  need: REPORT_ACCESS.ar_ageing,
  async run(tx: Tx, p, caller) {
    const ws = caller.workspaceId;
    await refreshOverdue(tx, ws);
    const asOf = p.as_of ?? (await today(tx));
    const keys = [...AGEING_BUCKETS.map((b) => b.key), "total"];
    if (p.company_id !== undefined) {
      const res = await tx.execute(sql`${openInvoices(ws, asOf, p.company_id)}
        select o.type, o.id, o.number, o.doc_date::text as doc_date, o.due_date::text as due_date, o.status,
          greatest(o.days, 0)::int as days_past_due, ${sql.join(bucketSums(), sql`, `)},
          ${money(sql`sum(o.amount)`)} as total, grouping(o.id) as is_total
        from o where o.amount > 0
        group by rollup ((o.type, o.id, o.number, o.doc_date, o.due_date, o.status, o.days))
        order by is_total, o.due_date nulls last, o.doc_date, o.type, o.id`);
      const aged = shape(res.rows as AgeingRow[], keys, [
        { key: "number", label: "Document", kind: "text" },
        { key: "doc_date", label: "Date", kind: "date" },
        { key: "due_date", label: "Due", kind: "date" },
        { key: "days_past_due", label: "Days past due", kind: "integer" },
        ...BUCKET_COLUMNS,
        { key: "total", label: "Outstanding", kind: "money" },
      ]);
      // Each row opens its document (an invoice, a debit note, a progressive claim).
      return { ...aged, key: "number", drill: aged.rows.map((r) => docDrill(String(r.type), r.id, r.number)) };
    }
    const res = await tx.execute(sql`${openInvoices(ws, asOf, undefined)}
      select o.company_id, c.name as company, count(*)::int as invoices, min(o.due_date)::text as oldest_due,
        ${sql.join(bucketSums(), sql`, `)}, ${money(sql`sum(o.amount)`)} as total,
        grouping(o.company_id) as is_total
      from o join company c on c.workspace_id = ${ws}::uuid and c.id = o.company_id
      where o.amount > 0
      group by rollup ((o.company_id, c.name))
      order by is_total, c.name, o.company_id`);
    return shape(res.rows as AgeingRow[], keys, [
      { key: "company", label: "Customer", kind: "text" },
      { key: "invoices", label: "Documents", kind: "integer" },
      { key: "oldest_due", label: "Oldest due", kind: "date" },
      ...BUCKET_COLUMNS,
      { key: "total", label: "Outstanding", kind: "money" },
    ]);
  },
});

export type AgeingRow = RollupRow;

// The ROLLUP's grand-total row becomes `totals` (zeros when nothing is open) with the count of rows; the others are
// the rows (ap_ageing too).
export function shape(all: AgeingRow[], keys: string[], columns: ReportColumn[]) {
  const { rows, totals } = splitTotals(all, keys);
  return { columns, rows, totals: { ...totals, count: rows.length } };
}
