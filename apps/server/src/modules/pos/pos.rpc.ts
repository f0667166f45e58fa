import { randomBytes } from "node:crypto";
import { can } from "@workmetrics/domain";
import { COMMANDS } from "@workmetrics/domain/commands";
import {
  POS_DISCOUNT_OVERRIDE,
  POS_SESSION_CLOSE_OTHERS,
  POS_STAFF_DISCOUNT_LIMIT,
} from "@workmetrics/domain/commands/pos";
import { dec, money, plain } from "@workmetrics/domain/documents/decimal";
import { formatNumber, numberYear } from "@workmetrics/domain/documents/numbering";
import { leg, type PostingRule } from "@workmetrics/domain/documents/postings";
import type Decimal from "decimal.js";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { postJournal } from "../../platform/documents/ledger.ts";
import { conflict, invalid } from "../../platform/documents/refusals.ts";
import { type StockMove, writeStockMoves } from "../../platform/documents/stock.ts";
import { today } from "../../platform/documents/store.ts";
import type { CommandDeps } from "../../platform/jobs/deps.ts";
import { queueMail } from "../../platform/jobs/mail.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { notFound, orderView, sessionView, zReport } from "./pos.views.ts";
import { receiptText } from "./receipt.ts";

// Issue 22 "Point of sale" (DESIGN §2.3.2 "POS"): the counter's commands, each in the request's one transaction and
// replayed once under its Idempotency-Key. A sale takes its goods out of the session's location at the products' cost,
// posts revenue and the GST extracted from the GST-inclusive prices, and debits each payment's account: cash to
// 1000 Cash, card and PayNow to their clearing accounts (1020, 1030), a voucher against 2310 Vouchers Outstanding.
// A refund is a pos_order of kind "refund" whose negative lines name the sale lines they refund, never more than
// was sold less what was refunded already; the goods come back in at the cost they left at. Closing a session
// compares the counted cash with the expected (float + cash taken − cash refunded − change) and posts the difference
// to 6310 Cash Over/Short. The POS number series (POS-YYYY-#####) is the documents' counter under type pos_order.

const GST_RATE = dec("9");
const GST_OF_INCLUSIVE = GST_RATE.div(GST_RATE.plus(100)); // 9/109 of an inclusive amount is its GST

const PAYMENT_ACCOUNTS = { cash: "1000", card: "1020", paynow: "1030", voucher: "2310" } as const;
type Method = keyof typeof PAYMENT_ACCOUNTS;

// Figures positive on a sale and negative on a refund, which posts through 4100 Sales Returns rather than 4000.
const posRule = (kind: "sale" | "refund"): PostingRule => ({
  name: `pos_${kind}`,
  memo: kind === "sale" ? "POS sale" : "POS refund",
  legs: [
    ...(Object.entries(PAYMENT_ACCOUNTS) as Array<[Method, string]>).map(([m, account]) => leg("debit", account, m, m)),
    leg("credit", kind === "sale" ? "4000" : "4100", "income", "net_total"),
    leg("credit", "2200", "output_tax", "tax_total"),
    leg("debit", "5000", "cogs", "cost_total"),
    leg("credit", "1200", "stock", "cost_total"),
  ],
});

const CASH_DIFFERENCE_RULE: PostingRule = {
  name: "pos_session_close",
  memo: "POS cash over/short",
  legs: [leg("debit", "1000", "cash", "difference"), leg("credit", "6310", "over_short", "difference")],
};

const ZERO = dec("0");
const total = (values: Decimal[]) => values.reduce((a, b) => a.plus(b), ZERO);
const cents = (d: Decimal) => dec(money(d));
const sgd = (d: Decimal | string) => `S$${money(d)}`;

type Session = { id: number; location_id: number; status: string; opened_by: string };

// A session is its cashier's drawer: only the one who opened it sells and refunds into it. Closing it is theirs too,
// or a supervisor's (POS_SESSION_CLOSE_OTHERS: owners and admins) who counts a drawer left open.
async function lockSession(
  tx: Tx,
  caller: Caller,
  id: number,
  use: "sell" | "refund" | "close",
  field = "session_id",
): Promise<Session> {
  const ws = caller.workspaceId as string;
  const res = await tx.execute(sql`select s.id, s.location_id, s.status, s.opened_by::text as opened_by,
      u.name as cashier from pos_session s
      left join "user" u on u.workspace_id = s.workspace_id and u.id = s.opened_by
    where s.workspace_id = ${ws}::uuid and s.id = ${id} for update of s`);
  const row = res.rows[0] as (Session & { cashier: string | null }) | undefined;
  if (!row) throw invalid(`There is no POS session ${id} in this workspace`, field);
  if (row.status !== "open") throw conflict(`POS session ${id} is closed: open a new session to go on selling`);
  if (row.opened_by !== caller.userId && !(use === "close" && can(caller.permissions, POS_SESSION_CLOSE_OTHERS))) {
    const whose = row.cashier ?? "another cashier";
    throw new RestError(
      403,
      "42501",
      use === "close"
        ? `POS session ${id} is ${whose}'s: only they or an admin may close it`
        : `POS session ${id} is ${whose}'s: ${use} from your own session (open one at your counter)`,
      [{ field, message: `POS session ${id} is ${whose}'s` }],
    );
  }
  return { id: Number(row.id), location_id: Number(row.location_id), status: row.status, opened_by: row.opened_by };
}

// The cashier's open session, when a command does not name one.
async function openSessionOf(tx: Tx, ws: string, caller: Caller): Promise<number> {
  const mine = (
    await tx.execute(sql`select id from pos_session where workspace_id = ${ws}::uuid
      and opened_by = ${caller.userId}::uuid and status = 'open'`)
  ).rows[0] as { id: number } | undefined;
  if (!mine) throw conflict("Open a POS session first: the money goes in and out of its drawer");
  return Number(mine.id);
}

// Gapless POS-YYYY-##### from the documents' counter row (held locked to the commit, so it is taken last).
async function takePosNumber(tx: Tx, ws: string, docDate: string): Promise<string> {
  const year = numberYear(docDate);
  const res = await tx.execute(sql`insert into number_counter (workspace_id, doc_type, year, next)
    values (${ws}::uuid, 'pos_order', ${year}, 2)
    on conflict (workspace_id, doc_type, year) do update set next = number_counter.next + 1
    returning next - 1 as n`);
  return formatNumber("POS", year, Number((res.rows[0] as { n: number | string }).n));
}

const token = () => randomBytes(18).toString("base64url");

type OrderHead = {
  kind: "sale" | "refund";
  status: string;
  date: string;
  session: Session;
  companyId: number | null;
  refundOf: number | null;
  subtotal: Decimal;
  discount: Decimal;
  tax: Decimal;
  total: Decimal;
  cost: Decimal;
};

type LineRow = {
  product_id: number;
  sku: string | null;
  description: string;
  qty: Decimal;
  unit_price: string;
  unit_cost: string;
  discount_percent: string;
  discount_amount: Decimal;
  tax_code: string;
  line_total: Decimal;
  source_line_id: number | null;
};

type PaymentRow = { method: Method; amount: Decimal; tendered: Decimal; change: Decimal; reference: string | null };

// Writes the order, its lines, payments, stock moves, number and journal entry; answers its id.
async function writeOrder(
  tx: Tx,
  caller: Caller,
  head: OrderHead,
  lines: LineRow[],
  payments: PaymentRow[],
): Promise<number> {
  const ws = caller.workspaceId as string;
  const net = head.total.minus(head.tax);
  const placeholder = `#pending#${token()}`;
  const inserted = await tx.execute(sql`insert into pos_order (workspace_id, number, status, kind, doc_date, session_id,
      location_id, company_id, refund_of, subtotal, discount_total, net_total, tax_total, total, cost_total,
      receipt_token, created_by)
    values (${ws}::uuid, ${placeholder}, ${head.status}, ${head.kind}, ${head.date}::date, ${head.session.id},
      ${head.session.location_id}, ${head.companyId}, ${head.refundOf}, ${money(head.subtotal)}, ${money(head.discount)},
      ${money(net)}, ${money(head.tax)}, ${money(head.total)}, ${money(head.cost)}, ${token()}, ${caller.userId}::uuid)
    returning id`);
  const id = Number((inserted.rows[0] as { id: number | string }).id);
  const json = lines.map((l, i) => ({
    workspace_id: ws,
    pos_order_id: id,
    line_no: i + 1,
    product_id: l.product_id,
    sku: l.sku,
    description: l.description,
    qty: plain(l.qty),
    unit_price: l.unit_price,
    unit_cost: l.unit_cost,
    discount_percent: l.discount_percent,
    discount_amount: money(l.discount_amount),
    tax_code: l.tax_code,
    line_total: money(l.line_total),
    source_line_id: l.source_line_id,
  }));
  const lineIds = await tx.execute(sql`insert into pos_order_line (workspace_id, pos_order_id, line_no, product_id, sku,
      description, qty, unit_price, unit_cost, discount_percent, discount_amount, tax_code, line_total, source_line_id)
    select workspace_id, pos_order_id, line_no, product_id, sku, description, qty, unit_price, unit_cost,
      discount_percent, discount_amount, tax_code, line_total, source_line_id
    from json_populate_recordset(null::pos_order_line, ${JSON.stringify(json)}::json)
    returning id, line_no`);
  const idOf = new Map(
    (lineIds.rows as Array<{ id: number | string; line_no: number }>).map((r) => [Number(r.line_no), Number(r.id)]),
  );
  const payJson = payments.map((p) => ({
    workspace_id: ws,
    pos_order_id: id,
    session_id: head.session.id,
    method: p.method,
    amount: money(p.amount),
    tendered: money(p.tendered),
    change_given: money(p.change),
    reference: p.reference,
  }));
  await tx.execute(sql`insert into pos_payment (workspace_id, pos_order_id, session_id, method, amount, tendered,
      change_given, reference)
    select workspace_id, pos_order_id, session_id, method, amount, tendered, change_given, reference
    from json_populate_recordset(null::pos_payment, ${JSON.stringify(payJson)}::json)`);
  const moves: StockMove[] = lines.map((l, i) => ({
    product_id: l.product_id,
    location_id: head.session.location_id,
    qty: plain(l.qty.neg()),
    unit_cost: l.unit_cost,
    doc_line_id: idOf.get(i + 1) as number,
  }));
  await writeStockMoves(tx, caller, { type: "pos_order", id }, moves, head.kind === "sale" ? "sell" : "refund");
  const number = await takePosNumber(tx, ws, head.date);
  await tx.execute(sql`update pos_order set number = ${number} where workspace_id = ${ws}::uuid and id = ${id}`);
  // A refund's figures are negative: buildJournal posts each negative leg on the other side (Dr 4100 Sales Returns,
  // Dr 2200, Cr the money's account; the goods back into 1200 out of 5000).
  const byMethod = (m: Method) => money(total(payments.filter((p) => p.method === m).map((p) => p.amount)));
  await postJournal(tx, caller, { type: "pos_order", id, number, date: head.date }, posRule(head.kind), {
    cash: byMethod("cash"),
    card: byMethod("card"),
    paynow: byMethod("paynow"),
    voucher: byMethod("voucher"),
    net_total: money(net),
    tax_total: money(head.tax),
    cost_total: money(head.cost),
  });
  return id;
}

const gstIn = (lines: readonly LineRow[]) =>
  cents(total(lines.filter((l) => l.tax_code === "SR").map((l) => l.line_total)).mul(GST_OF_INCLUSIVE));

type Product = {
  id: number;
  sku: string;
  name: string;
  price: string;
  cost: string;
  tax_code: string;
  active: boolean;
};

export const posSessionOpen = implement(COMMANDS.pos_session_open, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    const loc = (
      await tx.execute(
        sql`select name, active from location where workspace_id = ${ws}::uuid and id = ${args.location_id}`,
      )
    ).rows[0] as { name: string; active: boolean } | undefined;
    if (!loc) throw invalid(`There is no location ${args.location_id} in this workspace`, "location_id");
    if (!loc.active) throw invalid(`${loc.name} is no longer in use: choose another counter`, "location_id");
    if (dec(args.opening_float).isNegative()) throw invalid("The opening float cannot be negative", "opening_float");
    const open = (
      await tx.execute(sql`select s.id, l.name from pos_session s join location l on l.workspace_id = s.workspace_id
        and l.id = s.location_id where s.workspace_id = ${ws}::uuid and s.opened_by = ${caller.userId}::uuid
        and s.status = 'open' for update of s`)
    ).rows[0] as { id: number; name: string } | undefined;
    if (open) {
      throw conflict(`You already have session ${open.id} open at ${open.name}: close it before opening another`, {
        reason: "session_open",
        session_id: Number(open.id),
      });
    }
    const res = await tx.execute(sql`insert into pos_session (workspace_id, location_id, opening_float, opened_by)
      values (${ws}::uuid, ${args.location_id}, ${args.opening_float}::numeric, ${caller.userId}::uuid) returning id`);
    return sessionView(tx, ws, Number((res.rows[0] as { id: number }).id));
  },
});

export const posSale = implement(COMMANDS.pos_sale, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    const session = await lockSession(tx, caller, args.session_id ?? (await openSessionOf(tx, ws, caller)), "sell");
    if (args.customer_id != null) {
      const c = await tx.execute(
        sql`select 1 from company where workspace_id = ${ws}::uuid and id = ${args.customer_id}`,
      );
      if (c.rows.length === 0)
        throw invalid(`There is no customer ${args.customer_id} in this workspace`, "customer_id");
    }
    const ids = `{${[...new Set(args.lines.map((l) => l.product_id))].join(",")}}`;
    const found = await tx.execute(sql`select id, sku, name, price::text as price, cost::text as cost, tax_code, active
      from product where workspace_id = ${ws}::uuid and id = any(${ids}::bigint[])`);
    const products = new Map((found.rows as Product[]).map((p) => [Number(p.id), p]));
    const override = can(caller.permissions, POS_DISCOUNT_OVERRIDE);
    const lines: LineRow[] = args.lines.map((l, i) => {
      const at = `lines.${i}`;
      const p = products.get(l.product_id);
      if (!p)
        throw invalid(`There is no product ${l.product_id} in this workspace (line ${i + 1})`, `${at}.product_id`);
      if (!p.active) throw invalid(`${p.name} is no longer sold (line ${i + 1})`, `${at}.product_id`);
      const qty = dec(l.qty);
      if (!qty.isPositive()) throw invalid(`The quantity of ${p.name} must be more than 0`, `${at}.qty`);
      const price = dec(l.unit_price_incl_gst);
      if (price.isNegative()) throw invalid(`The price of ${p.name} cannot be negative`, `${at}.unit_price_incl_gst`);
      const pct = dec(l.discount_pct ?? "0");
      if (pct.isNegative() || pct.gt(100)) {
        throw invalid(`The discount on ${p.name} must be between 0 and 100%`, `${at}.discount_pct`);
      }
      if (!override && pct.gt(POS_STAFF_DISCOUNT_LIMIT)) {
        throw invalid(
          `You may discount a line by up to ${POS_STAFF_DISCOUNT_LIMIT}%: ask an admin for ${plain(pct)}% off ${p.name}`,
          `${at}.discount_pct`,
        );
      }
      // The catalogue's price includes GST at the counter; a cashier's own price may not undercut the discount
      // limit either (an admin's may).
      const listed = cents(dec(p.price).mul(p.tax_code === "SR" ? GST_RATE.plus(100).div(100) : 1));
      const floor = listed.mul(dec("100").minus(POS_STAFF_DISCOUNT_LIMIT)).div(100);
      if (!override && price.mul(dec("100").minus(pct)).div(100).lt(floor.minus("0.005"))) {
        throw invalid(
          `${p.name} sells at ${sgd(listed)}: only an admin may sell it for less than ${sgd(floor)}`,
          `${at}.unit_price_incl_gst`,
        );
      }
      const gross = cents(qty.mul(price));
      const discount = cents(gross.mul(pct).div(100));
      return {
        product_id: l.product_id,
        sku: p.sku,
        description: p.name,
        qty,
        unit_price: plain(price),
        unit_cost: p.cost,
        discount_percent: plain(pct),
        discount_amount: discount,
        tax_code: p.tax_code,
        line_total: gross.minus(discount),
        source_line_id: null,
      };
    });
    const due = total(lines.map((l) => l.line_total));
    // Payments: each more than zero; card, PayNow and vouchers pay at most what is due; cash covers the rest and
    // the change comes out of the cash tendered.
    const given = args.payments.map((p, i) => {
      const amount = dec(p.amount);
      if (!amount.isPositive()) throw invalid(`Payment ${i + 1} must be more than 0`, `payments.${i}.amount`);
      return { method: p.method, amount, reference: p.reference ?? null };
    });
    const paid = total(given.map((p) => p.amount));
    if (paid.lt(due)) {
      throw invalid(`The payments cover ${sgd(paid)} of ${sgd(due)}: ${sgd(due.minus(paid))} is still due`, "payments");
    }
    const cashIn = total(given.filter((p) => p.method === "cash").map((p) => p.amount));
    let change = paid.minus(due);
    if (change.gt(cashIn)) {
      throw invalid(
        `Only cash gives change: card, PayNow and vouchers pay at most ${sgd(due.minus(cashIn))} of this sale`,
        "payments",
      );
    }
    const payments: PaymentRow[] = given.map((p) => {
      if (p.method !== "cash" || change.isZero()) {
        return { ...p, tendered: p.method === "cash" ? p.amount : ZERO, change: ZERO };
      }
      const back = Decimal_min(change, p.amount);
      change = change.minus(back);
      return { ...p, amount: p.amount.minus(back), tendered: p.amount, change: back };
    });
    const costs = total(lines.map((l) => cents(l.qty.mul(dec(l.unit_cost)))));
    const id = await writeOrder(
      tx,
      caller,
      {
        kind: "sale",
        status: "paid",
        date: await today(tx),
        session,
        companyId: args.customer_id ?? null,
        refundOf: null,
        subtotal: total(lines.map((l) => l.line_total.plus(l.discount_amount))),
        discount: total(lines.map((l) => l.discount_amount)),
        tax: gstIn(lines),
        total: due,
        cost: costs,
      },
      lines,
      payments.filter((p) => p.amount.isPositive() || p.tendered.isPositive()),
    );
    return orderView(tx, { ws, id });
  },
});

const Decimal_min = (a: Decimal, b: Decimal) => (a.lt(b) ? a : b);

type SaleLine = {
  id: number;
  product_id: number;
  sku: string | null;
  description: string;
  qty: string;
  unit_price: string;
  unit_cost: string;
  discount_percent: string;
  tax_code: string;
  line_total: string;
  qty_refunded: string;
  refunded_amount: string;
};

export const posRefund = implement(COMMANDS.pos_refund, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    const sale = (
      await tx.execute(sql`select id, number, kind, company_id from pos_order
        where workspace_id = ${ws}::uuid and id = ${args.order_id} for update`)
    ).rows[0] as { id: number; number: string; kind: string; company_id: number | null } | undefined;
    if (!sale) throw invalid(`There is no POS order ${args.order_id} in this workspace`, "order_id");
    if (sale.kind !== "sale") throw conflict(`${sale.number} is itself a refund: refund the sale it refunds`);
    const session = await lockSession(tx, caller, args.session_id ?? (await openSessionOf(tx, ws, caller)), "refund");
    const res = await tx.execute(sql`select l.id, l.product_id, l.sku, l.description, l.qty::text as qty,
        l.unit_price::text as unit_price, l.unit_cost::text as unit_cost, l.discount_percent::text as discount_percent,
        l.tax_code, l.line_total::text as line_total, l.qty_refunded::text as qty_refunded,
        coalesce((select -sum(r.line_total) from pos_order_line r where r.workspace_id = l.workspace_id
          and r.source_line_id = l.id), 0)::text as refunded_amount
      from pos_order_line l where l.workspace_id = ${ws}::uuid and l.pos_order_id = ${sale.id}
      order by l.line_no for update of l`);
    const saleLines = new Map((res.rows as SaleLine[]).map((l) => [Number(l.id), l]));
    const seen = new Set<number>();
    const lines: LineRow[] = args.lines.map((r, i) => {
      const at = `lines.${i}`;
      const l = saleLines.get(r.source_line_id);
      if (!l) throw invalid(`Line ${r.source_line_id} is not a line of ${sale.number}`, `${at}.source_line_id`);
      if (seen.has(r.source_line_id)) throw invalid(`${l.description} is listed twice`, `${at}.source_line_id`);
      seen.add(r.source_line_id);
      const qty = dec(r.qty);
      if (!qty.isPositive())
        throw invalid(`The quantity of ${l.description} to refund must be more than 0`, `${at}.qty`);
      const left = dec(l.qty).minus(dec(l.qty_refunded));
      if (qty.gt(left)) {
        throw conflict(
          left.isZero()
            ? `${l.description} on ${sale.number} has been refunded in full already`
            : `Only ${plain(left)} of ${plain(l.qty)} ${l.description} on ${sale.number} ${left.eq(1) ? "is" : "are"} left to refund, not ${plain(qty)}`,
          { reason: "over_refund", source_line_id: r.source_line_id },
        );
      }
      // What was paid for these, the last of a line taking what is left of its total so the cents add up.
      const amount = qty.eq(left)
        ? dec(l.line_total).minus(dec(l.refunded_amount))
        : cents(dec(l.line_total).mul(qty).div(dec(l.qty)));
      const gross = cents(qty.mul(dec(l.unit_price)));
      return {
        product_id: Number(l.product_id),
        sku: l.sku,
        description: l.description,
        qty: qty.neg(),
        unit_price: l.unit_price,
        unit_cost: l.unit_cost,
        discount_percent: l.discount_percent,
        discount_amount: gross.minus(amount).neg(),
        tax_code: l.tax_code,
        line_total: amount.neg(),
        source_line_id: Number(l.id),
      };
    });
    for (const [i, r] of args.lines.entries()) {
      await tx.execute(sql`update pos_order_line set qty_refunded = qty_refunded + ${plain(dec(r.qty))}::numeric
        where workspace_id = ${ws}::uuid and id = ${r.source_line_id}`);
      void i;
    }
    const left = await tx.execute(sql`select coalesce(sum(qty - qty_refunded), 0)::text as left from pos_order_line
      where workspace_id = ${ws}::uuid and pos_order_id = ${sale.id}`);
    const status = dec((left.rows[0] as { left: string }).left).isZero() ? "refunded" : "partly_refunded";
    await tx.execute(sql`update pos_order set status = ${status}, updated_at = now()
      where workspace_id = ${ws}::uuid and id = ${sale.id}`);
    const back = total(lines.map((l) => l.line_total)); // negative
    const id = await writeOrder(
      tx,
      caller,
      {
        kind: "refund",
        status: "refund",
        date: await today(tx),
        session,
        companyId: sale.company_id == null ? null : Number(sale.company_id),
        refundOf: Number(sale.id),
        subtotal: total(lines.map((l) => l.line_total.plus(l.discount_amount))),
        discount: total(lines.map((l) => l.discount_amount)),
        tax: gstIn(lines),
        total: back,
        cost: total(lines.map((l) => cents(l.qty.mul(dec(l.unit_cost))))),
      },
      lines,
      [{ method: args.method, amount: back, tendered: ZERO, change: ZERO, reference: null }],
    );
    return orderView(tx, { ws, id });
  },
});

export const posSessionClose = implement(COMMANDS.pos_session_close, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    const session = await lockSession(tx, caller, args.session_id, "close");
    const counted = dec(args.counted_cash);
    if (counted.isNegative()) throw invalid("The counted cash cannot be negative", "counted_cash");
    const z = await zReport(tx, ws, session.id);
    const expected = dec(z.expected_cash);
    const difference = counted.minus(expected);
    await tx.execute(sql`update pos_session set status = 'closed', expected_cash = ${money(expected)}::numeric,
        counted_cash = ${money(counted)}::numeric, difference = ${money(difference)}::numeric, closed_at = now(),
        closed_by = ${caller.userId}::uuid, updated_at = now()
      where workspace_id = ${ws}::uuid and id = ${session.id}`);
    await postJournal(
      tx,
      caller,
      { type: "pos_session", id: session.id, number: `POS session ${session.id}`, date: await today(tx) },
      CASH_DIFFERENCE_RULE,
      { difference: money(difference) },
    );
    return zReport(tx, ws, session.id);
  },
});

export const posZReport = implement(COMMANDS.pos_z_report, {
  run: async (tx, args, caller) => zReport(tx, caller.workspaceId as string, args.session_id),
});

// The receipt to a customer's address (a walk-in's address is nobody's contact, so this sends only the receipt itself,
// never a message of the cashier's), through the jobs outbox; at most three times per receipt and 60 an hour per
// cashier, each logged in the order's history.
export const POS_EMAIL_LIMITS = { perReceipt: 3, perUserPerHour: 60 } as const;

export const posReceiptEmail = implement(COMMANDS.pos_receipt_email, {
  run: async (tx, args, caller, deps: CommandDeps) => {
    const ws = caller.workspaceId as string;
    const order = await orderView(tx, { ws, id: args.order_id });
    const sent = (
      await tx.execute(sql`select count(*) filter (where doc_id = ${Number(order.id)})::int as this,
        count(*) filter (where user_id = ${caller.userId}::uuid and at > now() - interval '1 hour')::int as mine
      from document_event where workspace_id = ${ws}::uuid and doc_type = 'pos_order' and action = 'email'`)
    ).rows[0] as { this: number; mine: number };
    if (sent.this >= POS_EMAIL_LIMITS.perReceipt) {
      throw conflict(`${order.number} has been e-mailed ${POS_EMAIL_LIMITS.perReceipt} times already`);
    }
    if (sent.mine >= POS_EMAIL_LIMITS.perUserPerHour) {
      throw conflict("You have sent as many receipts as an hour allows: try again later");
    }
    const link = `${deps.links.publicUrl.replace(/\/$/, "")}/r/${order.receipt_token}`;
    const text = `${receiptText(order)}\n\nYour e-receipt: ${link}\n`;
    const job = await queueMail(
      deps,
      tx,
      {
        to: args.to,
        fromName: `${order.workspace_name} via Workmetrics`,
        subject: `Your receipt ${order.number} from ${order.workspace_name}`,
        text,
        html: `<pre style="font-family:ui-monospace,monospace">${escapeHtml(receiptText(order))}</pre><p><a href="${escapeHtml(link)}">View your e-receipt</a></p>`,
      },
      { workspaceId: ws, docType: "pos_order", docId: Number(order.id) },
    );
    await tx.execute(sql`insert into document_event (workspace_id, doc_type, doc_id, action, from_status, to_status,
        reason, user_id, changes)
      values (${ws}::uuid, 'pos_order', ${Number(order.id)}, 'email', ${order.status}, ${order.status}, null,
        ${caller.userId}::uuid, ${JSON.stringify({ to: args.to, job })}::jsonb)`);
    await tx.execute(
      sql`update pos_order set emailed_to = ${args.to} where workspace_id = ${ws}::uuid and id = ${Number(order.id)}`,
    );
    return { queued: true, to: args.to };
  },
});

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

export { notFound };

// The favourites grid: the chosen products in their order replace the list (one statement each way, in the
// request's transaction). Each must be an active product of this workspace — another workspace's id reads as none.
export const posFavouritesSet = implement(COMMANDS.pos_favourites_set, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    const ids = args.product_ids;
    if (ids.length > 0) {
      const found = await tx.execute(sql`select id, name, active from product
        where workspace_id = ${ws}::uuid and id = any(${`{${ids.join(",")}}`}::bigint[])`);
      const byId = new Map(
        (found.rows as Array<{ id: number | string; name: string; active: boolean }>).map((r) => [Number(r.id), r]),
      );
      const missing = ids.find((p) => !byId.has(p));
      if (missing !== undefined) throw invalid(`There is no product ${missing} in this workspace`, "product_ids");
      const retired = ids.map((p) => byId.get(p)).find((p) => p && !p.active);
      if (retired) throw invalid(`${retired.name} is no longer sold: choose an active product`, "product_ids");
    }
    await tx.execute(sql`delete from pos_favourite where workspace_id = ${ws}::uuid`);
    if (ids.length > 0) {
      await tx.execute(sql`insert into pos_favourite (workspace_id, product_id, position)
        select ${ws}::uuid, p.id, p.n - 1 from unnest(${`{${ids.join(",")}}`}::bigint[]) with ordinality as p(id, n)`);
    }
    return { product_ids: ids };
  },
});
