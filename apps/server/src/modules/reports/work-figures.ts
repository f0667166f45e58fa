import { can, decide } from "@workmetrics/domain";
import { REPORT_ACCESS } from "@workmetrics/domain/reports";
import { findResource } from "@workmetrics/domain/resources";
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { type Caller, memberOf, readScope } from "../../platform/rest/access.ts";
import { receivableTypes } from "../documents/receivable.ts";
import { reads } from "./selling-figures.ts";

// Issue 21 §1 "Homes by role": each member's home shows their work, not a count of every table. Beside the selling
// figures (selling-figures.ts) come a salesperson's quotations running out, a storekeeper's receipts due, transfers
// on the road and deliveries still to ship, and finance's money due in and out this week and the cash at hand. Each
// figure comes only to a member who may read what it is made of (the one access rule), so the home page shows a
// card exactly when its figure came; one statement for all.

const WEEK = sql`current_date + 7`;

// Receivables falling due in the coming week (not yet overdue), in base currency: what should come in.
const receivablesDue = (ws: string) =>
  sql.join(
    receivableTypes().map(
      (t) => sql`select outstanding, rate from ${sql.identifier(t)} where workspace_id = ${ws}::uuid
        and outstanding > 0 and status not in ('draft', 'cancelled', 'overdue')
        and due_date between current_date and ${WEEK}`,
    ),
    sql` union all `,
  );

export async function workFigures(tx: Tx, caller: Caller): Promise<Record<string, unknown>> {
  const ws = caller.workspaceId;
  if (caller.kind !== "member" || !ws) return {};
  const who = memberOf(caller);
  const own = (name: string) =>
    readScope(findResource(name) as NonNullable<ReturnType<typeof findResource>>, caller, sql.raw(name)) ?? sql`true`;
  const parts: SQL[] = [];
  if (reads(caller, "quotation")) {
    parts.push(sql`(select json_build_object('count', count(*), 'amount', coalesce(sum(round(net_total * rate, 2)), 0)::numeric(14,2)::text)
      from quotation where workspace_id = ${ws}::uuid and status = 'sent'
        and valid_until between current_date and ${WEEK} and ${own("quotation")}) as quotations_expiring`);
  }
  if (reads(caller, "purchase_order")) {
    parts.push(sql`(select json_build_object('count', count(*), 'late', count(*) filter (where expected_date < current_date))
      from purchase_order where workspace_id = ${ws}::uuid and status in ('to_receive_and_bill', 'to_receive')
        and (expected_date is null or expected_date <= ${WEEK}) and ${own("purchase_order")}) as receipts_due`);
  }
  if (reads(caller, "goods_transfer_form")) {
    parts.push(sql`(select json_build_object('count', count(*)) from goods_transfer_form
      where workspace_id = ${ws}::uuid and status = 'in_transit' and ${own("goods_transfer_form")}) as transfers_in_transit`);
  }
  // Shipping is the warehouse's and the office's: a driver reads only the deliveries given to them (scope "own").
  if (reads(caller, "delivery_order") && can(caller.permissions, "delivery_order.read")) {
    parts.push(sql`(select json_build_object('count', count(*)) from delivery_order
      where workspace_id = ${ws}::uuid and status = 'draft' and ${own("delivery_order")}) as deliveries_to_ship`);
  }
  if (reads(caller, "invoice") && decide(who, REPORT_ACCESS.ar_ageing).allowed) {
    parts.push(sql`(select json_build_object('count', count(*), 'amount', coalesce(sum(round(outstanding * rate, 2)), 0)::numeric(14,2)::text)
      from (${receivablesDue(ws)}) r) as receivables_due_week`);
  }
  if (reads(caller, "supplier_invoice") && decide(who, REPORT_ACCESS.ap_ageing).allowed) {
    parts.push(sql`(select json_build_object('count', count(*), 'amount', coalesce(sum(round(outstanding * rate, 2)), 0)::numeric(14,2)::text,
        'late', count(*) filter (where status = 'overdue' or due_date < current_date))
      from supplier_invoice where workspace_id = ${ws}::uuid and status in ('unpaid', 'partly_paid', 'overdue')
        and due_date <= ${WEEK}) as payables_due_week`);
  }
  if (decide(who, REPORT_ACCESS.trial_balance).allowed) {
    // Cash and bank: every cash- or bank-type account's balance, from the month sums the ledger keeps.
    parts.push(sql`(select json_build_object('amount', coalesce(sum(m.debit - m.credit), 0)::numeric(14,2)::text,
        'count', count(distinct a.code))
      from account a left join journal_month m on m.workspace_id = a.workspace_id and m.account_code = a.code
      where a.workspace_id = ${ws}::uuid and a.type in ('cash', 'bank')) as cash_at_hand`);
  }
  if (!parts.length) return {};
  const row = (await tx.execute(sql`select ${sql.join(parts, sql`, `)}`)).rows[0] as Record<string, unknown>;
  const parse = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v);
  return Object.fromEntries(
    Object.entries(row)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, parse(v)]),
  );
}
