import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { act, type Doc, draft, ok, type Product, products, read, rpc } from "./documents-helpers.ts";
import { locationsByCode, openingStock, ownServer } from "./own-server-helpers.ts";

// Issue 10 §2 and §5: delivery orders made from a sales order take what is left, refuse more (also when two race
// for the same remainder), take the goods out of stock at their cost and post the cost of goods sold; cancel gives
// all of it back. A server of its own, so the test can put opening stock in and read the stock and journal rows.

const ADMIN = "admin@demo.test";
const own = ownServer();
let items: Product[] = [];
let tuas = 0;
let ubi = 0;
const { q } = own;

beforeAll(async () => {
  items = await products(ADMIN, 2);
  const locs = await locationsByCode(ADMIN);
  tuas = locs["WH-TUAS"];
  ubi = locs["WH-UBI"];
  // Opening stock: 1000 of each at Tuas, none at Ubi.
  await openingStock(own, items, tuas, 1000);
}, 120_000);

// A submitted sales order: `qty` of the first product.
async function order(qty = "10"): Promise<Doc> {
  const so = await draft(ADMIN, "sales_order", {}, [{ product_id: items[0].id, qty }]);
  return ok(ADMIN, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
}

const deliver = (so: Doc, qty?: string, location = tuas) =>
  ok(ADMIN, "document_convert", {
    type: "sales_order",
    id: so.id,
    to: "delivery_order",
    header: { location_id: location },
    ...(qty ? { lines: [{ line_id: so.lines[0].id, qty }] } : {}),
  });

const submit = (d: Doc) => act(ADMIN, "delivery_order", d.id, "submit");
const onHand = async (productId: number, location = tuas) =>
  (
    await q<{ n: string }>(sql`select coalesce(sum(qty), 0)::text as n from stock_move
      where workspace_id = ${own.ws}::uuid and product_id = ${productId} and location_id = ${location}`)
  )[0].n;

describe("delivering a sales order", () => {
  it("in two parts: each defaults to what is left; the order counts what is delivered and settles", async () => {
    const so = await order("10");
    const first = await deliver(so, "6");
    expect(first).toMatchObject({ status: "draft", source_type: "sales_order", source_id: so.id });
    expect(first.lines[0]).toMatchObject({ qty: "6.000", source_line_id: so.lines[0].id, product_id: items[0].id });
    const done = await submit(first);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ status: "to_bill", number: expect.stringMatching(/^DO-\d{4}-\d{5}$/) });
    let after = await read(ADMIN, "sales_order", so.id);
    expect(after.lines[0].qty_delivered).toBe("6.000");
    expect(after.status).toBe("to_deliver_and_bill");

    const second = await deliver(so);
    expect(second.lines[0].qty).toBe("4.000");
    expect((await submit(second)).status).toBe(200);
    after = await read(ADMIN, "sales_order", so.id);
    expect(after.lines[0].qty_delivered).toBe("10.000");
    expect(after.status).toBe("to_bill");

    const none = await rpc(ADMIN, "document_convert", { type: "sales_order", id: so.id, to: "delivery_order" });
    expect(none.status).toBe(409);
    expect((none.body as { message: string }).message).toBe(`Nothing is left to deliver on ${so.number}`);
  });

  it("refuses more than is left, on convert and on submit, with the line and what is left", async () => {
    const so = await order("10");
    const asked = await rpc(ADMIN, "document_convert", {
      type: "sales_order",
      id: so.id,
      to: "delivery_order",
      lines: [{ line_id: so.lines[0].id, qty: "11" }],
    });
    expect(asked.status).toBe(409);
    expect((asked.body as { message: string }).message).toBe("Only 10 are left to deliver on line 1, not 11");
    const a = await deliver(so, "6");
    const b = await deliver(so);
    expect((await submit(a)).status).toBe(200);
    const refused = await submit(b);
    expect(refused.status).toBe(409);
    expect((refused.body as { message: string }).message).toBe("Only 4 of 10 are left to deliver on line 1");
    expect((await read(ADMIN, "delivery_order", b.id)).status).toBe("draft");
    expect((await read(ADMIN, "sales_order", so.id)).lines[0].qty_delivered).toBe("6.000");
  });

  it("two parallel deliveries of the same remainder: one wins, the other is told what is left", async () => {
    const so = await order("5");
    const [a, b] = await Promise.all([deliver(so), deliver(so)]);
    const answers = await Promise.all([submit(a), submit(b)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const lost = answers.find((r) => r.status === 409)!;
    expect((lost.body as { message: string }).message).toBe("Nothing is left to deliver on line 1: 5 of 5 delivered");
    expect((await read(ADMIN, "sales_order", so.id)).lines[0].qty_delivered).toBe("5.000");
  });

  it("refuses to take stock below zero, naming the product and the location; a line needs a location", async () => {
    const so = await order("3");
    const d = await deliver(so, undefined, ubi);
    const refused = await submit(d);
    expect(refused.status).toBe(409);
    expect((refused.body as { message: string }).message).toBe(
      `Not enough ${items[0].name} at Ubi Distribution Centre to deliver: 0 on hand, 3 needed`,
    );
    const nowhere = await ok(ADMIN, "document_convert", { type: "sales_order", id: so.id, to: "delivery_order" });
    const missing = await submit(nowhere);
    expect(missing.status).toBe(422);
    expect((missing.body as { message: string }).message).toBe("Choose the location line 1 leaves from");
    // A location per line wins over the header's.
    const perLine = await ok(ADMIN, "document_save", {
      type: "delivery_order",
      id: nowhere.id,
      header: { company_id: nowhere.company_id, location_id: ubi },
      lines: [{ product_id: items[0].id, qty: "3", source_line_id: so.lines[0].id, location_id: tuas }],
    });
    expect((await submit(perLine)).status).toBe(200);
  });
});

describe("stock and the books", () => {
  it("submit moves the stock out at cost and posts Dr 5000 / Cr 1200; cancel reverses both and the quantities", async () => {
    const so = await order("4");
    const before = await onHand(items[0].id);
    const d = await deliver(so);
    const sent = (await submit(d)).body as Doc;
    const cost = (Number(items[0].cost) * 4).toFixed(2);
    expect(Number(await onHand(items[0].id))).toBe(Number(before) - 4);
    const moves = await q<{ qty: string; unit_cost: string }>(sql`select qty::text, unit_cost::text from stock_move
      where workspace_id = ${own.ws}::uuid and doc_type = 'delivery_order' and doc_id = ${d.id}`);
    expect(moves).toEqual([{ qty: "-4.000", unit_cost: Number(items[0].cost).toFixed(4) }]);
    const [entry] = await q<{ id: string; number: string }>(sql`select id::text, number from journal_entry
      where workspace_id = ${own.ws}::uuid and source_type = 'delivery_order' and source_id = ${d.id}`);
    expect(entry.number).toBe(sent.number);
    const lines = await q(sql`select account_code, debit::text, credit::text from journal_line
      where workspace_id = ${own.ws}::uuid and entry_id = ${entry.id} order by line_no`);
    expect(lines).toEqual([
      { account_code: "5000", debit: cost, credit: "0.00" },
      { account_code: "1200", debit: "0.00", credit: cost },
    ]);

    const cancelled = await act(ADMIN, "delivery_order", d.id, "cancel");
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "cancelled", number: sent.number });
    expect(await onHand(items[0].id)).toBe(before);
    const [reversal] = await q<{ id: string }>(sql`select id::text from journal_entry
      where workspace_id = ${own.ws}::uuid and reversal_of = ${entry.id}`);
    const back = await q(sql`select account_code, debit::text, credit::text from journal_line
      where workspace_id = ${own.ws}::uuid and entry_id = ${reversal.id} order by line_no`);
    expect(back).toEqual([
      { account_code: "5000", debit: "0.00", credit: cost },
      { account_code: "1200", debit: cost, credit: "0.00" },
    ]);
    const order2 = await read(ADMIN, "sales_order", so.id);
    expect(order2.lines[0].qty_delivered).toBe("0.000");
    expect(order2.status).toBe("to_deliver_and_bill");
    // Cancelled once: a second cancel is refused by its status and writes nothing more.
    expect((await act(ADMIN, "delivery_order", d.id, "cancel")).status).toBe(409);
  });

  it("every journal entry balances", async () => {
    const rows = await q<{ entries: number; unbalanced: number }>(sql`select count(*)::int as entries,
        count(*) filter (where d <> c)::int as unbalanced from (select entry_id, sum(debit) as d, sum(credit) as c
        from journal_line where workspace_id = ${own.ws}::uuid group by entry_id) t`);
    expect(rows[0].entries).toBeGreaterThan(3);
    expect(rows[0].unbalanced).toBe(0);
  });
});

// Issue 21 §1 "Locations": a delivery whose order names no location takes the workspace's default warehouse (a
// document setting), else its only ordinary location; In transit and On loan are never one. Last in the file: it
// sets the default and puts it back.
describe("the default warehouse", () => {
  const settings = (args: Record<string, unknown>) => rpc(ADMIN, "document_settings_save", args);
  const made = async () =>
    ok(ADMIN, "document_convert", { type: "sales_order", id: (await order("1")).id, to: "delivery_order" });

  it("is refused unless it is an active ordinary location of the workspace", async () => {
    const nowhere = await settings({ default_location_id: 999_999 });
    expect(nowhere.status).toBe(422);
    expect(nowhere.body).toMatchObject({ message: "There is no such location" });
    const [transit] = await q<{ id: string }>(sql`insert into location (workspace_id, code, name)
      values (${own.ws}::uuid, 'TRANSIT-T', 'In transit') returning id`);
    await q(sql`insert into system_location (workspace_id, kind, location_id)
      values (${own.ws}::uuid, 'transit', ${transit.id}) on conflict do nothing`);
    const system = await q<{ location_id: string }>(sql`select location_id from system_location
      where workspace_id = ${own.ws}::uuid and kind = 'transit'`);
    const moving = await settings({ default_location_id: Number(system[0].location_id) });
    expect(moving.status).toBe(422);
    expect(moving.body).toMatchObject({ message: "Goods are not sent from or received into In transit or On loan" });
    expect((await ok(ADMIN, "document_settings", {})).default_location_id).toBeNull();
  });

  it("a delivery made from a sales order takes it; with none chosen and several locations, the clerk chooses", async () => {
    expect((await made()).location_id).toBeNull();
    const saved = await settings({ default_location_id: ubi });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ default_location_id: ubi });
    const d = await made();
    expect(d.location_id).toBe(ubi);
    // Typed from scratch too, and a location the clerk gives wins.
    const typed = await draft(ADMIN, "delivery_order", {}, [{ product_id: items[0].id, qty: "1" }]);
    expect(typed.location_id).toBe(ubi);
    const given = await ok(ADMIN, "document_convert", {
      type: "sales_order",
      id: (await order("1")).id,
      to: "delivery_order",
      header: { location_id: tuas },
    });
    expect(given.location_id).toBe(tuas);
    expect((await settings({ default_location_id: null })).body).toMatchObject({ default_location_id: null });
  });

  it("a workspace with one location is never asked", async () => {
    const others = await q<{ id: string }>(sql`update location set active = false
      where workspace_id = ${own.ws}::uuid and active and id <> ${tuas} returning id`);
    try {
      expect((await made()).location_id).toBe(tuas);
    } finally {
      await q(sql`update location set active = true
        where workspace_id = ${own.ws}::uuid and id = any(${`{${others.map((o) => o.id).join(",")}}`}::bigint[])`);
    }
  });
});
