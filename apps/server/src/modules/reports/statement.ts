import { REPORT_ACCESS } from "@workmetrics/domain/reports";
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../platform/db/database.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { receivableTypes } from "../documents/receivable.ts";
import { docDrill, idParam } from "./analytics/shared.ts";
import { refreshOverdue } from "./overdue.ts";
import { defineReport } from "./registry.ts";

// Issue 10 §2 "a customer statement": what the customer was charged and paid between `from` and `to`, in base
// currency, with the balance brought forward and the running balance after each line. Charges are the submitted
// receivables (receivable.ts: invoices, debit notes, progressive claims — a claim for what it makes payable now;
// not drafts, not cancelled: a cancelled one was reversed); credits are receipts (the whole amount, allocated or not)
// and issued credit notes. One statement. The PDF route (GET /api/documents/statement/{company_id}/pdf) and the
// `customer_statement` report both call this.

export type StatementLine = {
  date: string;
  type: "invoice" | "debit_note" | "progressive_claim" | "receipt" | "credit_note";
  id: number;
  number: string;
  reference: string | null; // a receivable's due date ("Due 2026-12-01"), the receipt's method and reference
  debit: string;
  credit: string;
  balance: string;
};

export type CustomerStatement = {
  company: { id: number; name: string; address: string | null; email: string | null };
  from: string;
  to: string;
  opening: string; // owed at the start of `from`
  lines: StatementLine[];
  debit: string; // charged in the period
  credit: string; // paid or credited in the period
  closing: string; // owed at the end of `to`
  outstanding: string; // open receivables' outstanding today (what the ageing says)
};

export async function customerStatement(
  tx: Tx,
  workspaceId: string,
  input: { companyId: number; from: string; to: string },
): Promise<CustomerStatement> {
  const ws = workspaceId;
  const company = (
    await tx.execute(sql`select id, name, billing_address as address, email from company
      where workspace_id = ${ws}::uuid and id = ${input.companyId}`)
  ).rows[0] as CustomerStatement["company"] | undefined;
  if (!company) throw new RestError(404, "PGRST116", `There is no customer ${input.companyId} in this workspace`);
  const types = receivableTypes();
  // Charged: each receivable on its date (ord 1, 2, … in the registry's order, before credits on the same day).
  const charges = types.map(
    (type, i) => sql`select d.doc_date as date, ${type}::text as type, d.id, d.number,
        case when d.due_date is null then null else 'Due ' || d.due_date::text end as reference,
        d.base_total as debit, 0::numeric as credit, ${i + 1}::int as ord
      from ${sql.identifier(type)} d where d.workspace_id = ${ws}::uuid and d.company_id = ${input.companyId}
        and d.status not in ('draft', 'cancelled')`,
  );
  const open = types.map(
    (type) => sql`(select coalesce(sum(round(d.outstanding * d.rate, 2)), 0) from ${sql.identifier(type)} d
        where d.workspace_id = ${ws}::uuid and d.company_id = ${input.companyId}
          and d.status not in ('draft', 'cancelled') and d.outstanding > 0)`,
  );
  const s = await runningStatement<{ outstanding: string }>(
    tx,
    sql`${sql.join(charges, sql` union all `)}
      union all
      select c.doc_date, 'credit_note', c.id, c.number, null, 0, c.base_total, ${types.length + 1}::int
      from credit_note c where c.workspace_id = ${ws}::uuid and c.company_id = ${input.companyId}
        and c.status = 'issued'
      union all
      select r.doc_date, 'receipt', r.id, r.number, concat_ws(' ', r.method, r.reference), 0, r.amount,
        ${types.length + 2}::int
      from receipt r where r.workspace_id = ${ws}::uuid and r.company_id = ${input.companyId}
        and r.status <> 'cancelled'`,
    input,
    "debit",
    sql`(${sql.join(open, sql` + `)})::numeric(14,2)::text as outstanding`,
  );
  return {
    company,
    from: input.from,
    to: input.to,
    ...s,
    lines: s.lines as StatementLine[],
  };
}

export type RunningStatement = {
  opening: string;
  lines: Array<Record<string, string | number>>;
  debit: string;
  credit: string;
  closing: string;
};

// A statement of account over `entries` (date, type, id, number, reference, debit, credit, ord): what was owed
// before `from` (brought forward), the entries dated `from`–`to` with the balance after each (by date, then `ord`,
// then id), what the period charged and paid, and what is owed at the end of `to`. `owed` is the side that raises
// the balance: a customer's debits (what we charged), a supplier's credits (what they invoiced). One statement;
// `extra` adds columns to its one row. The customer and supplier statements both call it.
export async function runningStatement<Extra extends Record<string, string> = Record<never, string>>(
  tx: Tx,
  entries: SQL,
  range: { from: string; to: string },
  owed: "debit" | "credit",
  extra?: SQL,
): Promise<RunningStatement & Extra> {
  const grows = owed === "debit" ? sql`debit - credit` : sql`credit - debit`;
  const res = await tx.execute(sql`with entries as (${entries}), opening as (
      select coalesce(sum(${grows}), 0) as amount from entries where date < ${range.from}::date
    ), period as (
      select e.*, (select amount from opening)
        + sum(${grows}) over (order by e.date, e.ord, e.id rows unbounded preceding) as balance
      from entries e where e.date >= ${range.from}::date and e.date <= ${range.to}::date
    )
    select (select amount from opening)::numeric(14,2)::text as opening,
      coalesce((select json_agg(json_build_object('date', p.date::text, 'type', p.type, 'id', p.id,
        'number', p.number, 'reference', p.reference, 'debit', p.debit::numeric(14,2)::text,
        'credit', p.credit::numeric(14,2)::text, 'balance', p.balance::numeric(14,2)::text)
        order by p.date, p.ord, p.id) from period p), '[]') as lines,
      (select coalesce(sum(debit), 0) from period)::numeric(14,2)::text as debit,
      (select coalesce(sum(credit), 0) from period)::numeric(14,2)::text as credit,
      ((select amount from opening) + (select coalesce(sum(${grows}), 0) from period))::numeric(14,2)::text as closing
      ${extra ? sql`, ${extra}` : sql``}`);
  const row = res.rows[0] as RunningStatement & Extra & { lines: unknown };
  return { ...row, lines: typeof row.lines === "string" ? JSON.parse(row.lines) : row.lines };
}

const date = z.iso.date();

export const customerStatementReport = defineReport({
  name: "customer_statement",
  params: z
    .object({ company_id: idParam, from: date, to: date })
    .refine((p) => p.from <= p.to, { message: "The statement's from date is after its to date", path: ["from"] }),
  need: REPORT_ACCESS.customer_statement,
  async run(tx, p, caller) {
    await refreshOverdue(tx, caller.workspaceId);
    const s = await customerStatement(tx, caller.workspaceId, { companyId: p.company_id, from: p.from, to: p.to });
    return {
      columns: [
        { key: "date", label: "Date", kind: "date" },
        { key: "number", label: "Document", kind: "text" },
        { key: "reference", label: "Reference", kind: "text" },
        { key: "debit", label: "Charged", kind: "money" },
        { key: "credit", label: "Paid", kind: "money" },
        { key: "balance", label: "Balance", kind: "money" },
      ],
      rows: s.lines,
      totals: { opening: s.opening, debit: s.debit, credit: s.credit, closing: s.closing, outstanding: s.outstanding },
      key: "number",
      drill: s.lines.map((l) => docDrill(l.type, l.id, l.number)), // issue 12: each line opens its document
    };
  },
});
