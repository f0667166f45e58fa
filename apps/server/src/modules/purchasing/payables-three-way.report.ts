import { REPORT_ACCESS } from "@workmetrics/domain/reports";
import { THREE_WAY_REASONS } from "@workmetrics/domain/resources/payables";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { defineReport } from "../reports/registry.ts";

// Issue 11 "/dashboard/three-way-check", the exception queue: every submitted supplier invoice's lines with what was
// ordered, received and invoiced, the order's price against the invoice's, and the check's outcome — `exception`
// (a reason, the invoice still held), `released` (a reason, released to pay by someone allowed to, with why),
// `passed`. Filters: outcome (default exception), supplier, reason; `invoice_id` gives one invoice's lines with
// their order and receipt (the side-by-side drill-down). A page at a time; `totals` carries the number of lines the
// filters match (`count`), how many lines have each outcome under the other filters, and how many of the chosen
// outcome's lines have each reason. One statement.
// `report {name: "three_way_check", status?, company_id?, reason?, invoice_id?, limit?, offset?}`.

const REASON_KEYS = THREE_WAY_REASONS.map((r) => r.key) as [string, ...string[]];

const params = z.object({
  status: z.enum(["exception", "released", "passed", "all"]).default("exception"),
  company_id: z.number().int().positive().optional(),
  reason: z.enum(REASON_KEYS).optional(),
  invoice_id: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(500).default(50),
  offset: z.number().int().min(0).default(0),
});

const OUTCOMES = ["exception", "released", "passed"] as const;

export const threeWayQueue = defineReport({
  name: "three_way_check",
  params,
  need: REPORT_ACCESS.three_way_check,
  async run(tx, p, caller) {
    const ws = caller.workspaceId;
    const chosen = p.invoice_id !== undefined ? "all" : p.status;
    const inStatus = chosen === "all" ? sql`true` : sql`b.outcome = ${chosen}`;
    const reasonCounts = THREE_WAY_REASONS.map(
      (r) =>
        sql`count(*) filter (where ${inStatus} and b.reasons ~ ${r.pattern})::int as ${sql.identifier(`reason_${r.key}`)}`,
    );
    const outcomeCounts = OUTCOMES.map(
      (o) => sql`count(*) filter (where b.outcome = ${o})::int as ${sql.identifier(`outcome_${o}`)}`,
    );
    const pattern = THREE_WAY_REASONS.find((r) => r.key === p.reason)?.pattern;
    // The figures and the page's choice read only the lines and their invoices; the order, the receipt and the
    // supplier are joined for the page's rows alone.
    const res = await tx.execute(sql`with b as (
        select i.id as invoice_id, i.doc_date, l.id as line_id, l.line_no, l.match_exception as reasons,
          case when l.match_exception is null then 'passed'
            when i.match_status = 'released' then 'released' else 'exception' end as outcome
        from supplier_invoice_line l
        join supplier_invoice i on i.workspace_id = l.workspace_id and i.id = l.supplier_invoice_id
        where l.workspace_id = ${ws}::uuid and i.status not in ('draft', 'cancelled')
          ${p.company_id === undefined ? sql`` : sql`and i.company_id = ${p.company_id}`}
          ${p.invoice_id === undefined ? sql`` : sql`and i.id = ${p.invoice_id}`}
      ), figures as (
        select ${sql.join([...outcomeCounts, ...reasonCounts], sql`, `)} from b
      ), page as (
        select b.invoice_id, b.doc_date, b.line_id, b.line_no, b.outcome, count(*) over ()::int as total from b
        where ${inStatus} ${pattern ? sql`and b.reasons ~ ${pattern}` : sql``}
        order by b.doc_date desc, b.invoice_id desc, b.line_no
        limit ${p.limit} offset ${p.offset}
      )
      select figures.*, page.total, page.outcome,
        i.id as invoice_id, i.number as invoice, i.supplier_invoice_number, i.doc_date::text as invoice_date,
        i.company_id, c.name as supplier, i.match_status, i.release_reason, i.released_at::text as released_at,
        l.id as line_id, l.line_no, l.description, l.qty::text as qty_invoiced, l.unit_price::text as invoice_price,
        pol.qty::text as qty_ordered, pol.qty_received::text as qty_received, pol.qty_billed::text as qty_billed,
        pol.unit_price::text as po_price,
        case when pol.unit_price > 0 then round((l.unit_price - pol.unit_price) * 100 / pol.unit_price, 1)::text end
          as price_difference_percent,
        po.id as purchase_order_id, po.number as purchase_order, po.doc_date::text as purchase_order_date,
        sd.id as receipt_id, sd.number as receipt, sd.doc_date::text as receipt_date, sd.supplier_do_number,
        sl.qty::text as qty_accepted, sl.qty_rejected::text as qty_rejected, sl.reject_reason,
        l.match_exception as reasons
      from figures left join page on true
      left join supplier_invoice_line l on l.workspace_id = ${ws}::uuid and l.id = page.line_id
      left join supplier_invoice i on i.workspace_id = ${ws}::uuid and i.id = page.invoice_id
      left join company c on c.workspace_id = i.workspace_id and c.id = i.company_id
      left join purchase_order_line pol on pol.workspace_id = l.workspace_id and pol.id = l.purchase_order_line_id
      left join purchase_order po on po.workspace_id = pol.workspace_id and po.id = pol.purchase_order_id
      left join supplier_delivery_order_line sl on sl.workspace_id = l.workspace_id
        and sl.id = l.supplier_delivery_order_line_id
      left join supplier_delivery_order sd on sd.workspace_id = sl.workspace_id and sd.id = sl.supplier_delivery_order_id
      order by page.doc_date desc, page.invoice_id desc, page.line_no`);
    const all = res.rows as Array<Record<string, string | number | null>>;
    const figures = [
      "total",
      ...OUTCOMES.map((o) => `outcome_${o}`),
      ...THREE_WAY_REASONS.map((r) => `reason_${r.key}`),
    ];
    const first = all[0];
    const totals: Record<string, number> = Object.fromEntries(figures.map((k) => [k, Number(first?.[k] ?? 0)]));
    // With nothing on the page the one row is the figures alone (the page's columns null).
    const rows = all
      .filter((r) => r.line_id !== null)
      .map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !figures.includes(k))));
    return {
      columns: [
        { key: "invoice", label: "Invoice", kind: "text" },
        { key: "supplier", label: "Supplier", kind: "text" },
        { key: "line_no", label: "Line", kind: "integer" },
        { key: "description", label: "Item", kind: "text" },
        { key: "qty_ordered", label: "Ordered", kind: "text" },
        { key: "qty_received", label: "Received", kind: "text" },
        { key: "qty_invoiced", label: "Invoiced", kind: "text" },
        { key: "po_price", label: "PO price", kind: "money" },
        { key: "invoice_price", label: "Invoice price", kind: "money" },
        { key: "reasons", label: "Exception", kind: "text" },
      ],
      rows,
      totals: { ...totals, count: totals.total },
    };
  },
});
