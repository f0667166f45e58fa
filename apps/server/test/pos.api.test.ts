import { randomUUID } from "node:crypto";
import { COMMANDS } from "@workmetrics/domain/commands";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl } from "./http.ts";
import { locationsByCode, openingStock, ownServer } from "./own-server-helpers.ts";
import { restFetch, tokenFor } from "./rest-helpers.ts";

// Issue 22 "Point of sale" (DESIGN §2.3.2 "POS"): a day at one counter — open with a float, sales with split payments
// and change, a refund of some lines, the close with a counted difference — each command replayed under its
// Idempotency-Key changing nothing; a refund above what was sold refused; the expected cash; the stock and the books
// after the day (every entry balanced, GST output the GST in the inclusive prices); Pro, Lite and other roles refused.

const own = ownServer();
const POS = "pos@demo.test";
const ADMIN = "admin@demo.test";
const MANAGER = "manager@demo.test";
const PRO_POS = "pos@pro.test";
const LITE = "admin@lite.test";

type Order = {
  id: number;
  number: string;
  status: string;
  total: string;
  tax_total: string;
  net_total: string;
  discount_total: string;
  change_given: string;
  receipt_token: string;
  lines: Array<{ id: number; qty: string; line_total: string; source_line_id: number | null; qty_refunded: string }>;
  payments: Array<{ method: string; amount: string; tendered: string; change_given: string }>;
};
type Z = {
  expected_cash: string;
  cash_sales: string;
  cash_refunds: string;
  change_given: string;
  net_sales: string;
  refunds: string;
  tax_net: string;
  session: { status: string; counted_cash: string | null; difference: string | null; expected_cash: string | null };
  by_method: Array<{ method: string; net: string }>;
};

const send = (email: string, fn: string, args: unknown, key: string = randomUUID()) =>
  restFetch(email, `rpc/${fn}`, { method: "POST", body: JSON.stringify(args), headers: { "idempotency-key": key } });
const err = (res: { body: unknown }) => res.body as { code: string; message: string };

let location = 0;
let items: Array<{ id: number; price: string; cost: string; tax_code: string }> = [];
let session = 0;
const incl = (p: { price: string }) => (Math.round(Number(p.price) * 109) / 100).toFixed(2);
const stockOf = async (productId: number) =>
  Number(
    (
      await own.q<{ n: string }>(sql`select coalesce(sum(qty), 0)::text as n from stock_move
        where product_id = ${productId} and location_id = ${location}`)
    )[0].n,
  );

beforeAll(async () => {
  const locs = await locationsByCode(ADMIN);
  location = Object.values(locs)[0];
  const res = await restFetch(
    ADMIN,
    "product?select=id,price,cost,tax_code&tax_code=eq.SR&is_stock_tracked=is.true&active=is.true&price=gt.5&order=id&limit=2",
  );
  items = res.body as typeof items;
  expect(items).toHaveLength(2);
  await openingStock(own, items, location, 40);
}, 120_000);

describe("POS at one counter", () => {
  let sale: Order;
  let before: number[] = [];

  it("opens a session once under one key, and not twice for one cashier", async () => {
    const key = randomUUID();
    const first = await send(POS, "pos_session_open", { location_id: location, opening_float: "100.00" }, key);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    session = (first.body as { id: number }).id;
    expect(COMMANDS.pos_session_open.result.safeParse(first.body).success).toBe(true);
    const again = await send(POS, "pos_session_open", { location_id: location, opening_float: "100.00" }, key);
    expect(again.status).toBe(200);
    expect((again.body as { id: number }).id).toBe(session);
    const second = await send(POS, "pos_session_open", { location_id: location, opening_float: "50" });
    expect(second.status).toBe(409);
    expect(err(second).message).toMatch(/already have session/);
  });

  it("sells with a split payment and change, once under one key", async () => {
    before = [await stockOf(items[0].id), await stockOf(items[1].id)];
    const key = randomUUID();
    const args = {
      session_id: session,
      lines: [
        { product_id: items[0].id, qty: "2", unit_price_incl_gst: incl(items[0]), discount_pct: "10" },
        { product_id: items[1].id, qty: "1", unit_price_incl_gst: incl(items[1]) },
      ],
      payments: [
        { method: "card", amount: "5.00" },
        { method: "cash", amount: "1000.00" },
      ],
    };
    const res = await send(POS, "pos_sale", args, key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    sale = res.body as Order;
    expect(COMMANDS.pos_sale.result.safeParse(res.body).error).toBeUndefined(); // the answer is what the web reads
    expect(sale.number).toMatch(/^POS-\d{4}-\d{5}$/);
    const gross0 = Math.round(2 * Number(incl(items[0])) * 100) / 100;
    const disc0 = Math.round(gross0 * 10) / 100;
    const total = gross0 - disc0 + Number(incl(items[1]));
    expect(Number(sale.total)).toBeCloseTo(total, 2);
    expect(Number(sale.tax_total)).toBeCloseTo(Math.round((total * 9 * 100) / 109) / 100, 2);
    expect(Number(sale.change_given)).toBeCloseTo(1005 - total, 2);
    const cash = sale.payments.find((p) => p.method === "cash");
    expect(cash).toMatchObject({ tendered: "1000.00" });
    const replay = await send(POS, "pos_sale", args, key);
    expect(replay.status).toBe(200);
    expect((replay.body as Order).number).toBe(sale.number);
    expect(await stockOf(items[0].id)).toBe(before[0] - 2);
    expect(await stockOf(items[1].id)).toBe(before[1] - 1);
  });

  it("refuses what the payments or the role do not allow", async () => {
    const line = { product_id: items[1].id, qty: "1", unit_price_incl_gst: incl(items[1]) };
    const short = await send(POS, "pos_sale", {
      session_id: session,
      lines: [line],
      payments: [{ method: "cash", amount: "1" }],
    });
    expect(short.status).toBe(422);
    expect(err(short).message).toMatch(/still due/);
    const cardChange = await send(POS, "pos_sale", {
      session_id: session,
      lines: [line],
      payments: [{ method: "card", amount: String(Number(incl(items[1])) + 5) }],
    });
    expect(cardChange.status).toBe(422);
    expect(err(cardChange).message).toMatch(/Only cash gives change/);
    const discount = await send(POS, "pos_sale", {
      session_id: session,
      lines: [{ ...line, discount_pct: "25" }],
      payments: [{ method: "cash", amount: "1000" }],
    });
    expect(discount.status).toBe(422);
    expect(err(discount).message).toMatch(/up to 10%/);
    const cheap = await send(POS, "pos_sale", {
      session_id: session,
      lines: [{ ...line, unit_price_incl_gst: "0.50" }],
      payments: [{ method: "cash", amount: "1000" }],
    });
    expect(cheap.status).toBe(422);
    expect(err(cheap).message).toMatch(/only an admin may sell it for less/);
  });

  it("refunds a line once, never more than was sold", async () => {
    const line = sale.lines[0];
    const key = randomUUID();
    const args = { order_id: sale.id, lines: [{ source_line_id: line.id, qty: "1" }], method: "cash" };
    const res = await send(POS, "pos_refund", args, key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const refund = res.body as Order;
    expect(refund.lines[0]).toMatchObject({ qty: "-1", source_line_id: line.id });
    expect(Number(refund.total)).toBeCloseTo(-Number(line.line_total) / 2, 2);
    const replay = await send(POS, "pos_refund", args, key);
    expect((replay.body as Order).number).toBe(refund.number);
    expect(await stockOf(items[0].id)).toBe(before[0] - 1);
    const over = await send(POS, "pos_refund", { ...args, lines: [{ source_line_id: line.id, qty: "2" }] });
    expect(over.status).toBe(409);
    expect(err(over).message).toMatch(/Only 1 of 2 .* left to refund, not 2/);
    const foreign = await send(POS, "pos_refund", { ...args, lines: [{ source_line_id: 1, qty: "1" }] });
    expect(foreign.status).toBe(422);
  });

  it("closes with the expected cash (float + cash sales − cash refunds − change) and posts the difference", async () => {
    const z = (await send(POS, "pos_z_report", { session_id: session })).body as Z;
    const float = 100;
    const expected = float + Number(z.cash_sales) - Number(z.cash_refunds) - Number(z.change_given);
    expect(Number(z.expected_cash)).toBeCloseTo(expected, 2);
    expect(Number(z.cash_sales)).toBe(1000);
    const counted = (expected - 2.5).toFixed(2);
    const key = randomUUID();
    const res = await send(POS, "pos_session_close", { session_id: session, counted_cash: counted }, key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const closed = res.body as Z;
    expect(COMMANDS.pos_session_close.result.safeParse(res.body).error).toBeUndefined();
    expect(closed.session).toMatchObject({ status: "closed", counted_cash: counted, difference: "-2.50" });
    const replay = await send(POS, "pos_session_close", { session_id: session, counted_cash: counted }, key);
    expect(replay.status).toBe(200);
    const late = await send(POS, "pos_sale", {
      session_id: session,
      lines: [{ product_id: items[1].id, qty: "1", unit_price_incl_gst: incl(items[1]) }],
      payments: [{ method: "cash", amount: "1000" }],
    });
    expect(late.status).toBe(409);
    const shortage = await own.q<{ debit: string }>(sql`select l.debit::text as debit from journal_line l
      join journal_entry e on e.workspace_id = l.workspace_id and e.id = l.entry_id
      where e.source_type = 'pos_session' and e.source_id = ${session} and l.account_code = '6310'`);
    expect(shortage).toEqual([{ debit: "2.50" }]);
  });

  it("keeps the books right after the day: balanced entries, GST output the GST in the prices, stock at cost", async () => {
    const rows = await own.q<{ entry_id: string; debit: string; credit: string }>(sql`select l.entry_id::text,
        sum(l.debit)::text as debit, sum(l.credit)::text as credit
      from journal_line l join journal_entry e on e.workspace_id = l.workspace_id and e.id = l.entry_id
      where e.source_type in ('pos_order', 'pos_session') group by l.entry_id`);
    expect(rows.length).toBe(3); // the sale, the refund, the close
    for (const r of rows) expect(r.debit).toBe(r.credit);
    const gst = await own.q<{ out: string; tax: string }>(sql`select
        (select coalesce(sum(l.credit - l.debit), 0) from journal_line l join journal_entry e
          on e.workspace_id = l.workspace_id and e.id = l.entry_id
          where e.source_type = 'pos_order' and l.account_code = '2200')::text as out,
        (select coalesce(sum(tax_total), 0) from pos_order where session_id = ${session})::text as tax`);
    expect(gst[0].out).toBe(gst[0].tax);
    // Each payment's account holds what it took: cash in 1000 (less change and the cash refund), card in 1020.
    const byAccount = await own.q<{ code: string; net: string; paid: string }>(sql`select m.code,
        (select coalesce(sum(l.debit - l.credit), 0) from journal_line l join journal_entry e
          on e.workspace_id = l.workspace_id and e.id = l.entry_id
          where e.source_type = 'pos_order' and l.account_code = m.code)::text as net,
        (select coalesce(sum(p.amount), 0) from pos_payment p where p.method = m.method)::text as paid
      from (values ('1000', 'cash'), ('1020', 'card')) as m(code, method)`);
    for (const a of byAccount) expect(a.net, a.code).toBe(a.paid);
    const returns = await own.q<{ net: string }>(sql`select coalesce(sum(l.debit - l.credit), 0)::text as net
      from journal_line l join journal_entry e on e.workspace_id = l.workspace_id and e.id = l.entry_id
      where e.source_type = 'pos_order' and l.account_code = '4100'`);
    expect(Number(returns[0].net)).toBeGreaterThan(0);
    const today = new Date().toISOString().slice(0, 10);
    const byProduct = await send(ADMIN, "report", { name: "sales_by_product", from: today, to: today });
    expect(byProduct.status, JSON.stringify(byProduct.body)).toBe(200);
    const sold = (byProduct.body as { rows: Array<{ product_id: number; qty: string }> }).rows.find(
      (r) => Number(r.product_id) === items[0].id,
    );
    const invoiced = await own.q<{ n: string }>(sql`select coalesce(sum(l.qty), 0)::text as n from invoice_line l
      join invoice i on i.workspace_id = l.workspace_id and i.id = l.invoice_id
      where l.product_id = ${items[0].id} and i.doc_date = ${today}::date and i.status not in ('draft', 'cancelled')`);
    expect(Number(sold?.qty)).toBe(Number(invoiced[0].n) + 1); // two sold at the counter, one refunded
    // Sales by customer counts them too: the walk-ins' row, its orders and their net (refunds negative).
    const byCustomer = await send(ADMIN, "report", { name: "sales_by_customer", from: today, to: today });
    expect(byCustomer.status, JSON.stringify(byCustomer.body)).toBe(200);
    const walkIn = (
      byCustomer.body as {
        rows: Array<{ company_id: number | null; company: string; pos_orders: number; net: string }>;
      }
    ).rows.find((r) => r.company_id == null);
    const posNet = await own.q<{ n: number; net: string }>(sql`select count(*)::int as n,
        coalesce(sum(net_total), 0)::text as net from pos_order where company_id is null and doc_date = ${today}::date`);
    expect(walkIn).toMatchObject({ company: "Walk-in (point of sale)", pos_orders: posNet[0].n });
    expect(Number(walkIn?.net)).toBeCloseTo(Number(posNet[0].net), 2);
    const tb = await send(ADMIN, "report", { name: "trial_balance", as_of: new Date().toISOString().slice(0, 10) });
    expect(tb.status).toBe(200);
    const totals = (tb.body as { totals: { debit: string; credit: string } }).totals;
    expect(totals.debit).toBe(totals.credit);
  });

  it("prints the receipt and the Z report, and shows the e-receipt by its token alone", async () => {
    const token = await tokenFor(POS);
    const pdf = await fetch(`${baseUrl()}/api/documents/pos_order/${sale.id}/pdf`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toMatch(/application\/pdf/);
    const z = await fetch(`${baseUrl()}/api/documents/pos_session/${session}/pdf`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(z.status).toBe(200);
    const page = await fetch(`${baseUrl()}/r/${sale.receipt_token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(sale.number);
    expect(html).toContain("GST 9% included");
    expect((await fetch(`${baseUrl()}/r/${"x".repeat(24)}`)).status).toBe(404);
    const mail = await send(POS, "pos_receipt_email", { order_id: sale.id, to: "walkin@example.test" });
    expect(mail.status, JSON.stringify(mail.body)).toBe(200);
    const jobs = await own.q(sql`select 1 from job where doc_type = 'pos_order' and doc_id = ${sale.id}`);
    expect(jobs.length).toBe(1);
  });

  it("is for Premium POS staff and admins only", async () => {
    const open = { location_id: location, opening_float: "0" };
    const manager = await send(MANAGER, "pos_session_open", open);
    expect(manager.status).toBe(403);
    for (const email of [PRO_POS, LITE]) {
      const res = await send(email, "pos_session_open", open);
      expect(res.status, email).toBe(403);
      expect(err(res).message, email).toMatch(/Premium/i);
    }
    const admin = await send(ADMIN, "pos_session_open", open);
    expect(admin.status, JSON.stringify(admin.body)).toBe(200);
    const id = (admin.body as { id: number }).id;
    const deep = await send(ADMIN, "pos_sale", {
      session_id: id,
      lines: [{ product_id: items[1].id, qty: "1", unit_price_incl_gst: incl(items[1]), discount_pct: "50" }],
      payments: [{ method: "cash", amount: "1000" }],
    });
    expect(deep.status, JSON.stringify(deep.body)).toBe(200);
    // A session is its cashier's drawer: POS staff neither sell, refund nor close in the admin's.
    const line = { product_id: items[1].id, qty: "1", unit_price_incl_gst: incl(items[1]) };
    const intrude = await send(POS, "pos_sale", {
      session_id: id,
      lines: [line],
      payments: [{ method: "card", amount: incl(items[1]) }],
    });
    expect(intrude.status).toBe(403);
    expect(err(intrude).message).toMatch(/is .+'s: sell from your own session/);
    const sold = (deep.body as Order).lines[0].id;
    const refund = await send(POS, "pos_refund", {
      order_id: (deep.body as Order).id,
      session_id: id,
      lines: [{ source_line_id: sold, qty: "1" }],
      method: "cash",
    });
    expect(refund.status).toBe(403);
    const closeOthers = await send(POS, "pos_session_close", { session_id: id, counted_cash: "0" });
    expect(closeOthers.status).toBe(403);
    expect(err(closeOthers).message).toMatch(/only they or an admin may close it/);
    const still = await own.q<{ status: string; n: number }>(sql`select s.status,
        (select count(*)::int from pos_order o where o.session_id = s.id) as n from pos_session s where s.id = ${id}`);
    expect(still[0]).toEqual({ status: "open", n: 1 });
    // …while an admin counts a drawer a cashier left open.
    const mine = await send(POS, "pos_session_open", { location_id: location, opening_float: "20" });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    const counted = await send(ADMIN, "pos_session_close", {
      session_id: (mine.body as { id: number }).id,
      counted_cash: "20",
    });
    expect(counted.status, JSON.stringify(counted.body)).toBe(200);
    expect((counted.body as Z).session.status).toBe("closed");
    const list = await restFetch(MANAGER, "pos_order?select=number,total&order=id");
    expect(list.status).toBe(200);
    expect((list.body as unknown[]).length).toBeGreaterThanOrEqual(3);
  });
});
