import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { act, type Doc, ok, read, rpc } from "./documents-helpers.ts";
import { openingStock } from "./own-server-helpers.ts";
import { BUYER, STORE, settings, world } from "./purchasing-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 21 §1 "Locations": a delivery or receipt whose order names no location takes each product's usual location
// (product.usual_location_id), else the workspace's default warehouse; In transit and On loan are refused at the
// field that names them; a line still without a location is refused at that line's location. A server of its own:
// the test sets products' usual locations and the default warehouse.

const ADMIN = "admin@demo.test";
const w = world();

const usual = (productId: number, location: number | null) =>
  restFetch(ADMIN, `product?id=eq.${productId}`, {
    method: "PATCH",
    body: JSON.stringify({ usual_location_id: location }),
  });

async function salesOrder(): Promise<Doc> {
  const customer = (await restFetch(ADMIN, "company?select=id&is_customer=is.true&order=id&limit=1")).body as Array<{
    id: number;
  }>;
  const so = await ok(ADMIN, "document_save", {
    type: "sales_order",
    header: { company_id: customer[0].id },
    lines: [
      { product_id: w.items[0].id, qty: "1" },
      { product_id: w.items[1].id, qty: "1" },
    ],
  });
  return ok(ADMIN, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
}

const deliver = async (header?: Record<string, unknown>) =>
  rpc(ADMIN, "document_convert", {
    type: "sales_order",
    id: (await salesOrder()).id,
    to: "delivery_order",
    ...(header ? { header } : {}),
  });

async function transit(): Promise<number> {
  const [made] = await w.q<{ id: string }>(sql`insert into location (workspace_id, code, name)
    values (${w.ws}::uuid, 'TRANSIT-L', 'In transit') returning id`);
  await w.q(sql`insert into system_location (workspace_id, kind, location_id)
    values (${w.ws}::uuid, 'transit', ${made.id}) on conflict do nothing`);
  const [row] = await w.q<{ location_id: string }>(sql`select location_id from system_location
    where workspace_id = ${w.ws}::uuid and kind = 'transit'`);
  return Number(row.location_id);
}

it("a delivery made from an order with no location: the product's usual one, else the line is refused at its field", async () => {
  await openingStock(w, w.items.slice(0, 2), w.ubi, 100);
  await openingStock(w, w.items.slice(0, 2), w.tuas, 100);
  expect((await usual(w.items[0].id, w.ubi)).status).toBeLessThan(300);
  const first = await deliver();
  expect(first.status, first.text).toBe(200);
  const d = first.body as Doc;
  expect(d.location_id).toBeNull();
  expect(d.lines.map((l) => l.location_id)).toEqual([w.ubi, null]);
  // The second product has no usual location and there is no default warehouse: refused at line 2's location.
  const refused = await act(ADMIN, "delivery_order", d.id, "submit");
  expect(refused.status).toBe(422);
  expect(refused.body).toMatchObject({
    message: "Choose the location line 2 leaves from",
    details: [{ field: "lines.1.location_id" }],
  });
  expect((await read(ADMIN, "delivery_order", d.id)).status).toBe("draft");
});

it("else the workspace's default warehouse; what the order or the clerk names wins over both", async () => {
  await settings({ default_location_id: w.tuas });
  try {
    const d = (await deliver()).body as Doc;
    expect(d.location_id).toBe(w.tuas);
    expect(d.lines.map((l) => l.location_id)).toEqual([w.ubi, null]);
    const done = await act(ADMIN, "delivery_order", d.id, "submit");
    expect(done.status, done.text).toBe(200);
    const moves = await w.q<{ product_id: string; location_id: string }>(sql`select product_id, location_id
      from stock_move where workspace_id = ${w.ws}::uuid and doc_type = 'delivery_order' and doc_id = ${d.id}
      order by product_id`);
    expect(moves.map((m) => [Number(m.product_id), Number(m.location_id)])).toEqual([
      [w.items[0].id, w.ubi],
      [w.items[1].id, w.tuas],
    ]);
    // A location the clerk gives for the delivery: every line from it.
    const given = (await deliver({ location_id: w.tuas })).body as Doc;
    expect(given.location_id).toBe(w.tuas);
    expect(given.lines.map((l) => l.location_id)).toEqual([null, null]);
  } finally {
    await settings({ default_location_id: null });
  }
});

it("a receipt of a purchase order that names no location takes the product's usual location", async () => {
  const po = await ok(BUYER, "document_save", {
    type: "purchase_order",
    header: { company_id: w.supplier },
    lines: [{ product_id: w.items[0].id, qty: "2", unit_price: "1.00" }],
  });
  expect(po.location_id).toBeNull();
  await ok(BUYER, "document_transition", { type: "purchase_order", id: po.id, action: "submit" });
  const receipt = await ok(STORE, "document_convert", {
    type: "purchase_order",
    id: po.id,
    to: "supplier_delivery_order",
  });
  expect(receipt.lines[0].location_id).toBe(w.ubi);
  const done = await act(STORE, "supplier_delivery_order", receipt.id, "submit");
  expect(done.status, done.text).toBe(200);
});

it("In transit and On loan are refused at the field that names them, nothing saved; a usual one there is passed over", async () => {
  const moving = await transit();
  const before = await w.q<{ n: number }>(sql`select count(*)::int as n from delivery_order
    where workspace_id = ${w.ws}::uuid`);
  const customer = (await restFetch(ADMIN, "company?select=id&is_customer=is.true&order=id&limit=1")).body as Array<{
    id: number;
  }>;
  const atHeader = await rpc(ADMIN, "document_save", {
    type: "delivery_order",
    header: { company_id: customer[0].id, location_id: moving },
    lines: [{ product_id: w.items[0].id, qty: "1" }],
  });
  expect(atHeader.status).toBe(422);
  expect(atHeader.body).toMatchObject({
    message: "Goods are not sent from or received into In transit; choose a warehouse",
    details: [{ field: "header.location_id" }],
  });
  const atLine = await rpc(ADMIN, "document_save", {
    type: "delivery_order",
    header: { company_id: customer[0].id },
    lines: [
      { product_id: w.items[0].id, qty: "1" },
      { product_id: w.items[1].id, qty: "1", location_id: moving },
    ],
  });
  expect(atLine.status).toBe(422);
  expect(atLine.body).toMatchObject({ details: [{ field: "lines.1.location_id" }] });
  expect((await deliver({ location_id: moving })).status).toBe(422);
  const after = await w.q<{ n: number }>(sql`select count(*)::int as n from delivery_order
    where workspace_id = ${w.ws}::uuid`);
  expect(after[0].n).toBe(before[0].n);
  // A product whose usual location is In transit (set behind the forms' back) gets none from it.
  await w.q(sql`update product set usual_location_id = ${moving} where workspace_id = ${w.ws}::uuid
    and id = ${w.items[1].id}`);
  const d = (await deliver()).body as Doc;
  expect(d.lines.map((l) => l.location_id)).toEqual([w.ubi, null]);
  await usual(w.items[1].id, null);
});

it("the usual location is the product's own field: read and written through the API", async () => {
  const res = await restFetch(ADMIN, `product?id=eq.${w.items[0].id}&select=usual_location_id`);
  expect(res.body).toEqual([{ usual_location_id: w.ubi }]);
  expect((await usual(w.items[0].id, 999_999)).status).toBeGreaterThanOrEqual(400);
  await usual(w.items[0].id, null);
});
