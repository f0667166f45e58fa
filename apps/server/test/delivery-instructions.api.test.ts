import { beforeAll, describe, expect, it } from "vitest";
import { act as actRaw, customer, type Doc, ok, read, rpc as rpcRaw } from "./documents-helpers.ts";
import type { Json } from "./http.ts";
import { restFetch } from "./rest-helpers.ts";

// The commands' answers, read by the assertions below.
const rpc = async (email: string, fn: string, args: unknown) =>
  (await rpcRaw(email, fn, args)) as { status: number; body: Json };
const act = async (email: string, type: string, id: number, action: string, reason?: string) =>
  (await actRaw(email, type, id, action, reason)) as { status: number; body: Json };

// Issue 10 §2 "Delivery instructions": made from an open sales order (what to pick, from where, when, by whom),
// draft → released → picked → done; a delivery order made from a picked instruction delivers the order through it,
// and the instruction is done once all of it is delivered. Warehouse tracking is a Pro feature: Lite is refused.
// The product is not stock-tracked, so the suite's shared server delivers it without opening stock.

const ADMIN = "admin@demo.test";
const WAREHOUSE = "warehouse@demo.test";
const DRIVER = "driver@demo.test";
const PRO = "admin@pro.test";
const LITE = "owner@lite.test";

let product = 0;
let location = 0;
let driverId = "";

beforeAll(async () => {
  const made = await restFetch(ADMIN, "product", {
    method: "POST",
    headers: { prefer: "return=representation" },
    body: JSON.stringify({
      sku: `DI-${Date.now()}`,
      name: "Pallet wrap",
      price: "20",
      cost: "8",
      unit: "roll",
      is_stock_tracked: false,
    }),
  });
  expect(made.status, made.text).toBe(201);
  product = (made.body as Array<{ id: number }>)[0].id;
  location = ((await restFetch(ADMIN, "location?select=id&order=id&limit=1")).body as Array<{ id: number }>)[0].id;
  const users = (await restFetch(ADMIN, `user?select=id&email=eq.${encodeURIComponent(DRIVER)}`)).body as Array<{
    id: string;
  }>;
  driverId = users[0].id;
});

async function salesOrder(qty = "10"): Promise<Doc> {
  const so = await ok(ADMIN, "document_save", {
    type: "sales_order",
    header: { company_id: await customer(ADMIN) },
    lines: [{ product_id: product, qty }],
  });
  return ok(ADMIN, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
}

const instruct = (so: Doc, email = ADMIN) =>
  ok(email, "document_convert", {
    type: "sales_order",
    id: so.id,
    to: "delivery_instruction",
    header: { planned_date: "2026-12-01", driver_id: driverId, location_id: location },
  });

const deliverFrom = (di: Doc, qty?: string) =>
  rpc(ADMIN, "document_convert", {
    type: "delivery_instruction",
    id: di.id,
    to: "delivery_order",
    header: { location_id: location },
    ...(qty ? { lines: [{ line_id: di.lines[0].id, qty }] } : {}),
  });

const picked = async (so: Doc): Promise<Doc> => {
  const di = await instruct(so);
  await ok(WAREHOUSE, "document_transition", { type: "delivery_instruction", id: di.id, action: "release" });
  return ok(WAREHOUSE, "document_transition", { type: "delivery_instruction", id: di.id, action: "pick" });
};

describe("delivery instructions", () => {
  it("are made from an open sales order, each line what is left to deliver; releasing numbers it", async () => {
    const so = await salesOrder();
    const di = await instruct(so);
    expect(di.status).toBe("draft");
    expect(di.number).toBeNull();
    expect(di.source_type).toBe("sales_order");
    expect([di.planned_date, di.driver_id, di.location_id]).toEqual(["2026-12-01", driverId, location]);
    expect(di.lines.map((l) => [l.product_id, l.qty, l.source_line_id])).toEqual([[product, "10.000", so.lines[0].id]]);
    const released = await ok(WAREHOUSE, "document_transition", {
      type: "delivery_instruction",
      id: di.id,
      action: "release",
    });
    expect(released.status).toBe("released");
    expect(released.number).toMatch(/^DI-\d{4}-\d{5}$/);
    // Picking is not delivering: the order still has all of it to deliver.
    expect((await read(ADMIN, "sales_order", so.id)).lines[0].qty_delivered).toBe("0.000");
  });

  it("a delivery order made from a picked instruction delivers the order through it; all delivered: Done", async () => {
    const so = await salesOrder();
    const di = await instruct(so);
    await ok(WAREHOUSE, "document_transition", { type: "delivery_instruction", id: di.id, action: "release" });
    const early = await deliverFrom(di);
    expect(early.status).toBe(409);
    expect(early.body.message).toBe("A released delivery instruction cannot be made into a delivery order");
    await ok(WAREHOUSE, "document_transition", { type: "delivery_instruction", id: di.id, action: "pick" });

    const first = await deliverFrom(di, "4");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.source_type).toBe("delivery_instruction");
    expect(first.body.lines[0].source_line_id).toBe(di.lines[0].id);
    await ok(ADMIN, "document_transition", { type: "delivery_order", id: first.body.id, action: "submit" });
    let now = await read(ADMIN, "delivery_instruction", di.id);
    expect([now.status, now.lines[0].qty_delivered]).toEqual(["picked", "4.000"]);
    let order = await read(ADMIN, "sales_order", so.id);
    expect([order.status, order.lines[0].qty_delivered]).toEqual(["to_deliver_and_bill", "4.000"]);

    const over = await deliverFrom(di, "7");
    expect(over.status).toBe(409);
    expect(over.body.message).toBe("Only 6 of 10 are left to deliver on line 1");

    const rest = await deliverFrom(di);
    expect(rest.status).toBe(200);
    expect(rest.body.lines[0].qty).toBe("6.000");
    await ok(ADMIN, "document_transition", { type: "delivery_order", id: rest.body.id, action: "submit" });
    now = await read(ADMIN, "delivery_instruction", di.id);
    expect([now.status, now.lines[0].qty_delivered]).toEqual(["done", "10.000"]);
    order = await read(ADMIN, "sales_order", so.id);
    expect([order.status, order.lines[0].qty_delivered]).toEqual(["to_bill", "10.000"]);

    // Done is done; cancelling a delivery gives its quantity back to the instruction and the order, and the
    // instruction cannot be cancelled while a delivery made from it stands.
    const done = await act(ADMIN, "delivery_instruction", di.id, "cancel");
    expect(done.status).toBe(409);
    expect(done.body.message).toBe("A done delivery instruction cannot be cancelled");
    await ok(ADMIN, "document_transition", { type: "delivery_order", id: rest.body.id, action: "cancel" });
    now = await read(ADMIN, "delivery_instruction", di.id);
    expect([now.status, now.lines[0].qty_delivered]).toEqual(["picked", "4.000"]);
    order = await read(ADMIN, "sales_order", so.id);
    expect([order.status, order.lines[0].qty_delivered]).toEqual(["to_deliver_and_bill", "4.000"]);
    const refused = await act(ADMIN, "delivery_instruction", di.id, "cancel");
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      `This delivery instruction is delivered on delivery order ${(await read(ADMIN, "delivery_order", first.body.id)).number}: cancel the delivery order first`,
    );
  });

  it("an invoice of a delivery made through an instruction bills the sales order too", async () => {
    const so = await salesOrder("3");
    const di = await picked(so);
    const made = await deliverFrom(di);
    expect(made.status).toBe(200);
    await ok(ADMIN, "document_transition", { type: "delivery_order", id: made.body.id, action: "submit" });
    const invoice = await ok(ADMIN, "document_convert", { type: "delivery_order", id: made.body.id, to: "invoice" });
    expect(invoice.lines[0].qty).toBe("3.000");
    await ok(ADMIN, "document_transition", { type: "invoice", id: invoice.id, action: "submit" });
    const order = await read(ADMIN, "sales_order", so.id);
    expect([order.status, order.lines[0].qty_delivered, order.lines[0].qty_billed]).toEqual([
      "completed",
      "3.000",
      "3.000",
    ]);
    // Billing the order directly as well is refused: it is all billed.
    const again = await rpc(ADMIN, "document_convert", { type: "sales_order", id: so.id, to: "invoice" });
    expect(again.status).toBe(409);
    await ok(ADMIN, "document_transition", { type: "invoice", id: invoice.id, action: "cancel" });
    const back = await read(ADMIN, "sales_order", so.id);
    expect([back.status, back.lines[0].qty_billed]).toEqual(["to_bill", "0.000"]);
  });

  it("answers every action from every status it reaches", async () => {
    const empty = await ok(ADMIN, "document_save", {
      type: "delivery_instruction",
      header: { company_id: await customer(ADMIN) },
      lines: [],
    });
    const cases: Array<[Doc, string, number, string | null]> = [
      [empty, "release", 409, "Add a line before releasing the delivery instruction"],
      [empty, "pick", 409, "A draft delivery instruction cannot be marked picked"],
      [empty, "cancel", 200, null],
      [empty, "release", 409, "A cancelled delivery instruction cannot be released"],
      [empty, "cancel", 409, "A cancelled delivery instruction cannot be cancelled"],
    ];
    const di = await picked(await salesOrder("2"));
    cases.push(
      [di, "release", 409, "A picked delivery instruction cannot be released"],
      [di, "pick", 409, "A picked delivery instruction cannot be marked picked"],
      [di, "ship", 400, 'Delivery instructions have no action "ship"'],
      [di, "cancel", 200, null],
    );
    for (const [doc, action, status, message] of cases) {
      const res = await act(ADMIN, "delivery_instruction", doc.id, action);
      expect(res.status, `${action}: ${JSON.stringify(res.body)}`).toBe(status);
      if (message) expect(res.body.message).toBe(message);
    }
    // A sales order no longer open cannot be instructed.
    const closed = await salesOrder("1");
    await ok(ADMIN, "document_transition", { type: "sales_order", id: closed.id, action: "close" });
    const res = await rpc(ADMIN, "document_convert", {
      type: "sales_order",
      id: closed.id,
      to: "delivery_instruction",
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("A closed sales order cannot be made into a delivery instruction");
  });

  it("warehouse staff release and pick; a driver reads but may not release", async () => {
    const di = await instruct(await salesOrder("1"));
    const driver = await act(DRIVER, "delivery_instruction", di.id, "release");
    expect(driver.status).toBe(403);
    expect((await restFetch(DRIVER, `delivery_instruction?id=eq.${di.id}`)).status).toBe(200);
    expect((await act(WAREHOUSE, "delivery_instruction", di.id, "release")).status).toBe(200);
  });

  it("need warehouse tracking: Lite is refused on every command and on reads; Pro has them", async () => {
    const save = await rpc(LITE, "document_save", { type: "delivery_instruction", header: {}, lines: [] });
    expect(save.status).toBe(403);
    expect(save.body.code).toBe("tier_required");
    expect(save.body.message).toMatch(/Pro/);
    const list = await restFetch(LITE, "delivery_instruction?select=id");
    expect(list.status).toBe(403);
    expect((await restFetch(PRO, "delivery_instruction?select=id")).status).toBe(200);
  });

  it("another workspace's order or instruction is not found", async () => {
    const so = await salesOrder("1");
    const di = await picked(so);
    for (const res of [
      await rpc(PRO, "document_convert", { type: "sales_order", id: so.id, to: "delivery_instruction" }),
      await rpc(PRO, "document_convert", { type: "delivery_instruction", id: di.id, to: "delivery_order" }),
      await act(PRO, "delivery_instruction", di.id, "cancel"),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(404);
    }
    expect((await read(ADMIN, "delivery_instruction", di.id)).status).toBe("picked");
  });
});
