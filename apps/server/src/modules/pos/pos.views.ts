import type { PosOrderView, PosSessionView, PosZReport } from "@workmetrics/domain/commands/pos";
import { dec, money } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { RestError } from "../../platform/rest/rest-error.ts";

// Issue 22 "Point of sale": what the counter's commands answer and what the receipt, the e-receipt and the Z report
// print — read in one place so the app, the PDFs and the public page show the same figures.

export const notFound = (what: string, id: number | string) =>
  new RestError(404, "PGRST116", `There is no ${what} ${id} in this workspace`);

const SESSION = sql`s.id, s.location_id, l.name as location_name, s.status, s.opening_float::text as opening_float,
  s.expected_cash::text as expected_cash, s.counted_cash::text as counted_cash, s.difference::text as difference,
  s.opened_at, s.closed_at, (select u.name from "user" u where u.workspace_id = s.workspace_id and u.id = s.opened_by) as opened_by_name
  from pos_session s join location l on l.workspace_id = s.workspace_id and l.id = s.location_id`;

export async function sessionView(tx: Tx, ws: string, id: number): Promise<PosSessionView> {
  const res = await tx.execute(sql`select ${SESSION} where s.workspace_id = ${ws}::uuid and s.id = ${id}`);
  const row = res.rows[0] as PosSessionView | undefined;
  if (!row) throw notFound("POS session", id);
  return row;
}

// An order with its lines and payments; by id in a workspace, or (the public e-receipt) by its token alone.
export async function orderView(tx: Tx, where: { ws: string; id: number } | { token: string }): Promise<PosOrderView> {
  const filter =
    "token" in where
      ? sql`o.receipt_token = ${where.token}`
      : sql`o.workspace_id = ${where.ws}::uuid and o.id = ${where.id}`;
  const res = await tx.execute(sql`select o.id, o.workspace_id::text as ws, o.number, o.kind, o.status,
      o.doc_date::text as doc_date, o.created_at, o.session_id, l.name as location_name, o.company_id,
      c.name as customer_name, o.refund_of, r.number as refund_of_number, o.subtotal::text as subtotal,
      o.discount_total::text as discount_total, o.net_total::text as net_total, o.tax_total::text as tax_total,
      o.total::text as total, o.receipt_token, u.name as cashier_name, w.name as workspace_name
    from pos_order o
    join location l on l.workspace_id = o.workspace_id and l.id = o.location_id
    join workspace w on w.id = o.workspace_id
    left join company c on c.workspace_id = o.workspace_id and c.id = o.company_id
    left join pos_order r on r.workspace_id = o.workspace_id and r.id = o.refund_of
    left join "user" u on u.workspace_id = o.workspace_id and u.id = o.created_by
    where ${filter}`);
  const head = res.rows[0] as (Omit<PosOrderView, "lines" | "payments" | "change_given"> & { ws: string }) | undefined;
  if (!head)
    throw "token" in where
      ? new RestError(404, "PGRST116", "This receipt does not exist")
      : notFound("POS order", where.id);
  const { ws, ...order } = head;
  const lines = await tx.execute(sql`select id, line_no, product_id, sku, description, trim_scale(qty)::text as qty,
      unit_price::numeric(14,2)::text as unit_price, trim_scale(discount_percent)::text as discount_percent,
      discount_amount::text as discount_amount, line_total::text as line_total, tax_code, source_line_id,
      trim_scale(qty_refunded)::text as qty_refunded
    from pos_order_line where workspace_id = ${ws}::uuid and pos_order_id = ${Number(order.id)} order by line_no`);
  const payments = await tx.execute(sql`select method, amount::text as amount, tendered::text as tendered,
      change_given::text as change_given, reference
    from pos_payment where workspace_id = ${ws}::uuid and pos_order_id = ${Number(order.id)} order by id`);
  const pays = payments.rows as PosOrderView["payments"];
  return {
    ...order,
    lines: lines.rows as PosOrderView["lines"],
    payments: pays,
    change_given: money(pays.reduce((n, p) => n.plus(dec(p.change_given)), dec("0"))),
  };
}

// The session's figures to date (the Z report when it is closed): sales and refunds by method, tax, discounts, and
// the cash the drawer should hold — the float + cash taken − cash refunded − change given.
export async function zReport(tx: Tx, ws: string, sessionId: number): Promise<PosZReport> {
  const session = await sessionView(tx, ws, sessionId);
  const totals = (
    await tx.execute(sql`select
      count(*) filter (where kind = 'sale')::int as sales_count,
      count(*) filter (where kind = 'refund')::int as refunds_count,
      coalesce(sum(subtotal) filter (where kind = 'sale'), 0)::text as gross_sales,
      coalesce(sum(discount_total) filter (where kind = 'sale'), 0)::text as discounts,
      coalesce(sum(total) filter (where kind = 'sale'), 0)::text as net_sales,
      coalesce(-sum(total) filter (where kind = 'refund'), 0)::text as refunds,
      coalesce(sum(tax_total) filter (where kind = 'sale'), 0)::text as tax_sales,
      coalesce(-sum(tax_total) filter (where kind = 'refund'), 0)::text as tax_refunds,
      coalesce(sum(tax_total), 0)::text as tax_net,
      (select name from workspace where id = ${ws}::uuid) as workspace_name
    from pos_order where workspace_id = ${ws}::uuid and session_id = ${sessionId}`)
  ).rows[0] as Omit<
    PosZReport,
    "session" | "by_method" | "change_given" | "cash_sales" | "cash_refunds" | "expected_cash"
  >;
  const methods = await tx.execute(sql`select p.method,
      coalesce(sum(p.amount) filter (where o.kind = 'sale'), 0)::text as sales,
      coalesce(-sum(p.amount) filter (where o.kind = 'refund'), 0)::text as refunds,
      coalesce(sum(p.amount), 0)::text as net, count(*)::int as count,
      coalesce(sum(p.tendered) filter (where o.kind = 'sale'), 0)::text as tendered,
      coalesce(sum(p.change_given), 0)::text as change
    from pos_payment p join pos_order o on o.workspace_id = p.workspace_id and o.id = p.pos_order_id
    where p.workspace_id = ${ws}::uuid and p.session_id = ${sessionId}
    group by p.method order by p.method`);
  const rows = methods.rows as Array<PosZReport["by_method"][number] & { tendered: string; change: string }>;
  const cash = rows.find((r) => r.method === "cash");
  const cashSales = cash?.tendered ?? "0";
  const change = cash?.change ?? "0";
  const cashRefunds = cash?.refunds ?? "0";
  const expected = dec(session.opening_float).plus(dec(cashSales)).minus(dec(cashRefunds)).minus(dec(change));
  return {
    ...totals,
    session,
    change_given: money(change),
    cash_sales: money(cashSales),
    cash_refunds: money(cashRefunds),
    expected_cash: session.expected_cash ?? money(expected),
    by_method: rows.map(({ tendered: _t, change: _c, ...r }) => r),
  };
}
