import { money, sum } from "@workmetrics/domain/documents/decimal";
import { REPORT_ACCESS } from "@workmetrics/domain/reports";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { RestError } from "../../../platform/rest/rest-error.ts";
import { defineReport } from "../registry.ts";
import { runningStatement } from "../statement.ts";
import {
  docDrill,
  docScope,
  idParam,
  moneySql as m,
  narrowedDrill,
  period,
  type RollupRow,
  splitTotals,
} from "./shared.ts";

// Issue 12 "Purchasing": purchases by supplier and the supplier statement, in base currency. A purchase is a
// submitted supplier invoice (not cancelled) dated in the period; a supplier debit note is a goods return note to
// the supplier that debited an invoice (issue 11: its payment_allocation rows of payment_type goods_return_note,
// removed when the note is cancelled), dated by the note.

// The debit notes of the workspace with what each debited, per supplier.
const debits = (ws: string) => sql`select g.id, g.number, g.doc_date, g.company_id, sum(a.amount) as amount
  from goods_return_note g
  join payment_allocation a on a.workspace_id = g.workspace_id and a.payment_type = 'goods_return_note'
    and a.payment_id = g.id
  where g.workspace_id = ${ws}::uuid and g.direction = 'supplier' and g.status not in ('draft', 'cancelled')
  group by g.id, g.number, g.doc_date, g.company_id`;

export const purchasesBySupplier = defineReport({
  name: "purchases_by_supplier",
  params: z.intersection(period, z.object({ company_id: idParam.optional() })),
  need: REPORT_ACCESS.purchases_by_supplier,
  async run(tx, p, caller) {
    const ws = caller.workspaceId;
    const scope = docScope(caller, "supplier_invoice", "i");
    const inPeriod = (alias: string) => sql`${sql.raw(alias)}.doc_date between ${p.from}::date and ${p.to}::date`;
    if (p.company_id !== undefined) {
      const res = await tx.execute(sql`select * from (
          select 'supplier_invoice' as type, i.id, i.number, i.supplier_invoice_number as reference,
            i.doc_date::text as doc_date, round(i.net_total * i.rate, 2)::numeric(14,2)::text as net,
            i.base_total::numeric(14,2)::text as total
          from supplier_invoice i
          where i.workspace_id = ${ws}::uuid and ${scope} and i.status not in ('draft', 'cancelled')
            and i.company_id = ${p.company_id} and ${inPeriod("i")}
          union all
          select 'goods_return_note', d.id, d.number, 'Debit note', d.doc_date::text, null,
            (-d.amount)::numeric(14,2)::text
          from (${debits(ws)}) d where d.company_id = ${p.company_id} and ${inPeriod("d")}
        ) x order by x.doc_date, x.id`);
      const rows = res.rows as Array<Record<string, string | number | null>>;
      const total = (k: string) => money(sum(rows.map((r) => String(r[k] ?? "0"))));
      return {
        columns: [
          { key: "number", label: "Document", kind: "text" },
          { key: "reference", label: "Supplier's number", kind: "text" },
          { key: "doc_date", label: "Date", kind: "date" },
          { key: "net", label: "Net", kind: "money" },
          { key: "total", label: "Total", kind: "money" },
        ],
        rows,
        totals: { net: total("net"), total: total("total"), count: rows.length },
        key: "number",
        drill: rows.map((r) => docDrill(String(r.type), r.id, r.number)),
      };
    }
    const res = await tx.execute(sql`with inv as (
        select i.company_id, count(*)::int as invoices, sum(round(i.net_total * i.rate, 2)) as net,
          sum(i.base_total) as total
        from supplier_invoice i
        where i.workspace_id = ${ws}::uuid and ${scope} and i.status not in ('draft', 'cancelled') and ${inPeriod("i")}
        group by i.company_id
      ), deb as (
        select d.company_id, sum(d.amount) as debited from (${debits(ws)}) d where ${inPeriod("d")}
        group by d.company_id
      )
      select c.id as company_id, c.name as supplier, coalesce(sum(inv.invoices), 0)::int as invoices,
        ${m(sql`sum(inv.net)`)} as net, ${m(sql`sum(inv.total)`)} as total, ${m(sql`sum(deb.debited)`)} as debited,
        ${m(sql`coalesce(sum(inv.total), 0) - coalesce(sum(deb.debited), 0)`)} as net_purchases,
        grouping(c.id) as is_total
      from inv full join deb on deb.company_id = inv.company_id
      join company c on c.workspace_id = ${ws}::uuid and c.id = coalesce(inv.company_id, deb.company_id)
      group by rollup ((c.id, c.name))
      order by is_total, coalesce(sum(inv.total), 0) desc, c.name`);
    const { rows, totals } = splitTotals(res.rows as RollupRow[], [
      "invoices",
      "net",
      "total",
      "debited",
      "net_purchases",
    ]);
    return {
      columns: [
        { key: "supplier", label: "Supplier", kind: "text" },
        { key: "invoices", label: "Invoices", kind: "integer" },
        { key: "net", label: "Net", kind: "money" },
        { key: "total", label: "Total with GST", kind: "money" },
        { key: "debited", label: "Debit notes", kind: "money" },
        { key: "net_purchases", label: "Total less debit notes", kind: "money" },
      ],
      rows,
      totals,
      key: "company_id",
      drill: rows.map(narrowedDrill("purchases_by_supplier", p, "company_id")),
    };
  },
});

// The customer statement mirrored for a supplier: what we owed them at `from` (brought forward), each supplier
// invoice (credit: owed more), payment and debit note (debit: owed less) dated in the period with the running
// balance, and what we owe at `to`. Payments count whole (allocated or not), as a receipt does on the customer's.
export const supplierStatement = defineReport({
  name: "supplier_statement",
  params: z.intersection(period, z.object({ company_id: idParam })),
  need: REPORT_ACCESS.supplier_statement,
  async run(tx, p, caller) {
    const ws = caller.workspaceId;
    const supplier = await tx.execute(sql`select id, name from company
      where workspace_id = ${ws}::uuid and id = ${p.company_id}`);
    if (!supplier.rows.length)
      throw new RestError(404, "PGRST116", `There is no supplier ${p.company_id} in this workspace`);
    const { lines: rows, ...totals } = await runningStatement(
      tx,
      sql`select i.doc_date as date, 'supplier_invoice' as type, i.id, i.number,
          concat_ws(' · ', i.supplier_invoice_number, 'Due ' || i.due_date::text) as reference,
          0::numeric as debit, i.base_total as credit, 1 as ord
        from supplier_invoice i where i.workspace_id = ${ws}::uuid and i.company_id = ${p.company_id}
          and i.status not in ('draft', 'cancelled')
        union all
        select d.doc_date, 'goods_return_note', d.id, d.number, 'Debit note', d.amount, 0, 2
        from (${debits(ws)}) d where d.company_id = ${p.company_id}
        union all
        select s.doc_date, 'supplier_payment', s.id, s.number, concat_ws(' ', s.method, s.reference), s.amount, 0, 3
        from supplier_payment s where s.workspace_id = ${ws}::uuid and s.company_id = ${p.company_id}
          and s.status <> 'cancelled'`,
      p,
      "credit",
    );
    return {
      columns: [
        { key: "date", label: "Date", kind: "date" },
        { key: "number", label: "Document", kind: "text" },
        { key: "reference", label: "Reference", kind: "text" },
        { key: "debit", label: "Paid or debited", kind: "money" },
        { key: "credit", label: "Invoiced", kind: "money" },
        { key: "balance", label: "Balance owed", kind: "money" },
      ],
      rows,
      totals,
      key: "number",
      drill: rows.map((r) => docDrill(String(r.type), r.id, r.number)),
    };
  },
});
