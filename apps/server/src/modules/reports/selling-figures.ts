import { decide, decideResource } from "@workmetrics/domain";
import { REPORT_ACCESS } from "@workmetrics/domain/reports";
import { findResource } from "@workmetrics/domain/resources";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { type Caller, memberOf, readScope } from "../../platform/rest/access.ts";
import { receivableTypes } from "../documents/receivable.ts";
import { refreshOverdue } from "./overdue.ts";

// Issue 10 §3 "The dashboard home shows real selling figures": net sales this month (monthSales), overdue receivables (sum and count, every receivable type), sales orders still to deliver, quotations sent and awaiting an
// answer. Each only for a member who may read that document type (the one access rule); one statement for all.

// Whether the member may read a resource (the one access rule); the home's work figures ask it too.
export const reads = (caller: Caller, name: string): boolean => {
  const def = findResource(name);
  return Boolean(def) && decideResource(memberOf(caller), def as NonNullable<typeof def>, "read").allowed;
};

// Every document a customer owes on that is past due (invoices, debit notes, progressive claims: receivable.ts), as
// the AR ageing counts them.
const overdueReceivables = (ws: string) =>
  sql.join(
    receivableTypes().map(
      (t) =>
        sql`select outstanding, rate from ${sql.identifier(t)} where workspace_id = ${ws}::uuid and status = 'overdue'`,
    ),
    sql` union all `,
  );

// Net sales this month, as the sales reports and the P&L's income count them (issue 21 §1: the tile included GST and
// ignored credit notes): invoices and debit notes less credit notes, excluding GST, in base currency.
const monthSales = (ws: string) => {
  const month = sql`doc_date >= date_trunc('month', current_date)::date and doc_date <= current_date`;
  return sql`select 'invoice' as kind, round(net_total * rate, 2) as net from invoice
      where workspace_id = ${ws}::uuid and status not in ('draft', 'cancelled') and ${month}
    union all select 'debit_note', round(net_total * rate, 2) from debit_note
      where workspace_id = ${ws}::uuid and status not in ('draft', 'cancelled') and ${month}
    union all select 'credit_note', -round(net_total * rate, 2) from credit_note
      where workspace_id = ${ws}::uuid and status = 'issued' and ${month}
    union all select 'pos_order', net_total from pos_order where workspace_id = ${ws}::uuid and ${month}`;
};

export async function sellingFigures(tx: Tx, caller: Caller): Promise<Record<string, unknown>> {
  const ws = caller.workspaceId;
  if (caller.kind !== "member" || !ws) return {};
  const invoices = reads(caller, "invoice");
  const orders = reads(caller, "sales_order");
  const quotes = reads(caller, "quotation");
  // Who owes what is the receivables report's (a salesperson reads invoices but not Accounts receivable): the
  // overdue figure needs what ar_ageing needs.
  const receivables = invoices && decide(memberOf(caller), REPORT_ACCESS.ar_ageing).allowed;
  if (!invoices && !orders && !quotes) return {};
  if (receivables) await refreshOverdue(tx, ws);
  // A salesperson counts their own quotations and orders (issue 10 §3): the rows the caller reads.
  const own = (name: string) =>
    readScope(findResource(name) as NonNullable<ReturnType<typeof findResource>>, caller, sql.raw(name)) ?? sql`true`;
  const none = sql`null`;
  const res = await tx.execute(sql`select
      ${
        invoices
          ? sql`(select json_build_object('amount', coalesce(sum(net), 0)::numeric(14,2)::text,
              'count', count(*) filter (where kind = 'invoice'))
          from (${monthSales(ws)}) s)`
          : none
      } as sales_this_month,
      ${
        receivables
          ? sql`(select json_build_object('amount', coalesce(sum(round(outstanding * rate, 2)), 0)::numeric(14,2)::text,
            'count', count(*))
          from (${overdueReceivables(ws)}) r)`
          : none
      } as overdue_receivables,
      ${
        orders
          ? sql`(select json_build_object('count', count(*)) from sales_order
          where workspace_id = ${ws}::uuid and status in ('to_deliver_and_bill', 'to_deliver') and ${own("sales_order")})`
          : none
      } as orders_to_deliver,
      ${
        quotes
          ? sql`(select json_build_object('count', count(*)) from quotation
          where workspace_id = ${ws}::uuid and status = 'sent' and ${own("quotation")})`
          : none
      } as open_quotations`);
  const row = res.rows[0] as Record<string, unknown>;
  const parse = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v);
  return Object.fromEntries(
    Object.entries(row)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, parse(v)]),
  );
}
