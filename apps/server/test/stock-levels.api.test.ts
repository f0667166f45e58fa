import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, inRequest } from "../src/platform/db/database.ts";
import { act, type Doc, draft, ok, read, rpc } from "./documents-helpers.ts";
import { startTestServer, type TestServer } from "./harness.ts";
import { useServer } from "./http.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 11 "Stock": the stock levels figures at each step (stock in, an order reserving, a delivery, a purchase order
// on order), the "to reorder" filter and the purchase orders it drafts per preferred supplier, the stock card's
// running balance, a sales order's shortfall drafted as a purchase order, who may do what, and another workspace's
// ids refused. A server of its own with a product of its own, so no other test's documents move its figures.

const ADMIN = "admin@demo.test";
const SALES = "sales@demo.test";
const WAREHOUSE = "warehouse@demo.test";
const PROCUREMENT = "procurement@demo.test";
const OTHER = "admin@pro.test";
let server: TestServer;
let db: Db;
let ws = "";
let product = 0;
let tuas = 0;
let ubi = 0;
let supplier = 0;
let otherSupplier = 0;
let order: Doc;

type Level = Record<string, string | boolean | null | number> & {
  by_location: Array<{ location_id: number; location: string; qty: string }>;
};
type Levels = { rows: Level[]; total: number };

const q = async <T>(query: ReturnType<typeof sql>): Promise<T[]> =>
  inRequest(
    db,
    { workspaceId: ws, userId: null, role: "authenticated" },
    async (tx) => (await tx.execute(query)).rows as T[],
  );

const levels = async (args: Record<string, unknown> = {}, email = ADMIN) =>
  (await ok(email, "stock_levels", { product_ids: [product], ...args })) as unknown as Levels;

const figures = async (args: Record<string, unknown> = {}) => {
  const { rows } = await levels(args);
  expect(rows).toHaveLength(1);
  const { on_hand, reserved, on_order, available, to_reorder } = rows[0];
  return { on_hand, reserved, on_order, available, to_reorder };
};

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: "silent" });
  useServer(server.url);
  db = server.running.database.db;
  ws = ((await db.execute(sql`select id from workspace where slug = 'demo'`)).rows[0] as { id: string }).id;
  const made = await restFetch(ADMIN, "product", {
    method: "POST",
    headers: { Prefer: "return=representation" },
    body: JSON.stringify({ sku: "STK-LEVEL-1", name: "Stock level test valve", cost: "12.50", price: "20" }),
  });
  expect(made.status, made.text).toBe(201);
  product = (made.body as Array<{ id: number }>)[0].id;
  const locs = (await restFetch(ADMIN, "location?select=id,code&order=code")).body as Array<{
    id: number;
    code: string;
  }>;
  tuas = locs.find((l) => l.code === "WH-TUAS")!.id;
  ubi = locs.find((l) => l.code === "WH-UBI")!.id;
  const sups = (await restFetch(ADMIN, "company?select=id&is_supplier=is.true&order=id")).body as Array<{ id: number }>;
  [supplier, otherSupplier] = sups.map((s) => s.id);
  // Stock in: 100 at Tuas.
  await q(sql`insert into stock_move (workspace_id, product_id, location_id, qty, unit_cost, doc_type, doc_id)
    values (${ws}::uuid, ${product}, ${tuas}, 100, 12.50, 'opening', 0)`);
}, 120_000);
afterAll(() => server?.close());

describe("stock levels", () => {
  it("shows what is on hand, by location", async () => {
    expect(await figures()).toEqual({
      on_hand: "100.000",
      reserved: "0.000",
      on_order: "0.000",
      available: "100.000",
      to_reorder: false,
    });
    const { rows } = await levels();
    expect(rows[0].by_location).toEqual([expect.objectContaining({ location_id: tuas, qty: "100.000" })]);
    expect((await figures({ location_id: ubi })).on_hand).toBe("0.000");
  });

  it("reserves what a submitted sales order has not delivered, and a delivery takes it out of both", async () => {
    const so = await draft(ADMIN, "sales_order", {}, [{ product_id: product, qty: "30" }]);
    expect((await figures()).reserved).toBe("0.000"); // a draft reserves nothing
    order = await ok(ADMIN, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
    expect(await figures()).toMatchObject({ on_hand: "100.000", reserved: "30.000", available: "70.000" });
    const dn = await ok(ADMIN, "document_convert", {
      type: "sales_order",
      id: order.id,
      to: "delivery_order",
      header: { location_id: tuas },
      lines: [{ line_id: order.lines[0].id, qty: "10" }],
    });
    const sent = await act(ADMIN, "delivery_order", dn.id, "submit");
    expect(sent.status, sent.text).toBe(200);
    expect(await figures()).toMatchObject({ on_hand: "90.000", reserved: "20.000", available: "70.000" });
    // The sales order names no location: with one chosen, its reservation still counts against it.
    expect(await figures({ location_id: tuas })).toMatchObject({ on_hand: "90.000", available: "70.000" });
  });

  it("finds products by name or SKU and pages them", async () => {
    const { rows } = (await ok(ADMIN, "stock_levels", { search: "stk-level" })) as unknown as Levels;
    expect(rows.map((r) => r.product_id)).toEqual([product]);
    const page = (await ok(ADMIN, "stock_levels", { limit: 2, offset: 0 })) as unknown as Levels;
    expect(page.rows).toHaveLength(2);
    expect(page.total).toBeGreaterThan(2);
  });
});

describe("reorder levels", () => {
  it("lists a product under 'to reorder' when available + on order falls below its minimum there", async () => {
    const made = await restFetch(WAREHOUSE, "reorder_level", {
      method: "POST",
      body: JSON.stringify({
        product_id: product,
        location_id: tuas,
        min_qty: "80",
        reorder_qty: "50",
        supplier_id: supplier,
      }),
    });
    expect(made.status, made.text).toBe(201);
    const short = await levels({ to_reorder: true });
    expect(short.rows.map((r) => r.product_id)).toEqual([product]);
    expect(short.rows[0]).toMatchObject({ min_qty: "80.000", reorder_qty: "50.000", to_reorder: true });
    expect((await levels({ to_reorder: true, location_id: ubi })).rows).toEqual([]); // no level at Ubi
  });

  it("refuses a second level for the same product and location, and a reorder quantity of 0", async () => {
    const twice = await restFetch(WAREHOUSE, "reorder_level", {
      method: "POST",
      body: JSON.stringify({ product_id: product, location_id: tuas, min_qty: "1", reorder_qty: "1" }),
    });
    expect(twice.status).toBe(409);
    const zero = await restFetch(WAREHOUSE, "reorder_level", {
      method: "POST",
      body: JSON.stringify({ product_id: product, location_id: ubi, min_qty: "1", reorder_qty: "0" }),
    });
    expect(zero.status).toBeGreaterThanOrEqual(400);
    expect(zero.status).toBeLessThan(500);
    expect(zero.text).toContain("reorder quantity must be more than 0");
  });

  it("drafts one purchase order per preferred supplier, which then counts as on order once submitted", async () => {
    // A second product short at Ubi, bought from another supplier: two suppliers, two drafts.
    const made = await restFetch(ADMIN, "product", {
      method: "POST",
      headers: { Prefer: "return=representation" },
      body: JSON.stringify({ sku: "STK-LEVEL-2", name: "Stock level test gasket", cost: "2", price: "5" }),
    });
    const second = (made.body as Array<{ id: number }>)[0].id;
    await restFetch(ADMIN, "reorder_level", {
      method: "POST",
      body: JSON.stringify({
        product_id: second,
        location_id: ubi,
        min_qty: "5",
        reorder_qty: "40",
        supplier_id: otherSupplier,
      }),
    });
    const refused = await rpc(WAREHOUSE, "reorder_draft_purchase_orders", { product_ids: [product, second] });
    expect(refused.status).toBe(403); // the warehouse sees what to reorder; a buyer drafts
    const res = (await ok(PROCUREMENT, "reorder_draft_purchase_orders", {
      product_ids: [product, second],
    })) as unknown as {
      created: Array<{ id: number; supplier_id: number; location_id: number; lines: number }>;
    };
    expect(res.created.map((c) => [c.supplier_id, c.location_id, c.lines]).sort()).toEqual(
      [
        [supplier, tuas, 1],
        [otherSupplier, ubi, 1],
      ].sort(),
    );
    // Asked again before the drafts are submitted: nothing is drafted twice.
    const again = await rpc(PROCUREMENT, "reorder_draft_purchase_orders", { product_ids: [product, second] });
    expect(again.status).toBe(422);
    expect(again.text).toContain("already on a draft purchase order");
    const po = await read(ADMIN, "purchase_order", res.created.find((c) => c.supplier_id === supplier)!.id);
    expect(po).toMatchObject({ status: "draft", company_id: supplier, location_id: tuas });
    expect(po.lines).toEqual([expect.objectContaining({ product_id: product, qty: "50.000", unit_price: "12.5000" })]);
    expect((await figures()).on_order).toBe("0.000"); // a draft brings nothing yet
    const submitted = await act(ADMIN, "purchase_order", po.id, "submit");
    expect(submitted.status, submitted.text).toBe(200);
    expect(await figures()).toMatchObject({ on_order: "50.000", to_reorder: false });
    expect((await figures({ location_id: ubi })).on_order).toBe("0.000"); // it delivers to Tuas
  });
});

describe("stock card", () => {
  it("lists every move with its document and the running balance, paged", async () => {
    const card = (await ok(ADMIN, "stock_card", { product_id: product })) as unknown as {
      rows: Array<Record<string, string | number | null>>;
      total: number;
    };
    expect(card.total).toBe(2);
    expect(card.rows.map((r) => [r.doc_type, r.qty_in, r.qty_out, r.balance, r.unit_cost])).toEqual([
      ["opening", "100.000", null, "100.000", "12.5000"],
      ["delivery_order", null, "10.000", "90.000", "12.5000"],
    ]);
    expect(card.rows[1].number).toMatch(/^DO-/);
    const second = (await ok(ADMIN, "stock_card", { product_id: product, limit: 1, offset: 1 })) as unknown as {
      rows: Array<Record<string, string>>;
    };
    expect(second.rows.map((r) => r.balance)).toEqual(["90.000"]); // carried over from the first page
  });
});

describe("purchase what is short", () => {
  it("drafts a purchase order for what a sales order needs beyond stock and open purchase orders", async () => {
    const so = await draft(ADMIN, "sales_order", {}, [{ product_id: product, qty: "200" }]);
    const covered = await rpc(PROCUREMENT, "purchase_short", { sales_order_id: so.id });
    expect(covered.status).toBe(409); // a draft reserves nothing and is not purchased for
    const big = await ok(ADMIN, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
    // 200 wanted; free for it: 90 on hand − 20 the first order keeps + 50 on order = 120.
    const res = (await ok(PROCUREMENT, "purchase_short", { sales_order_id: big.id })) as unknown as {
      created: Array<{ id: number; supplier_id: number }>;
      short: Array<{ product_id: number; qty: string }>;
    };
    expect(res.short).toEqual([expect.objectContaining({ product_id: product, qty: "80" })]);
    expect(res.created).toHaveLength(1);
    const po = await read(ADMIN, "purchase_order", res.created[0].id);
    expect(po).toMatchObject({ status: "draft", company_id: supplier, location_id: tuas });
    expect(po.lines[0]).toMatchObject({ product_id: product, qty: "80.000" });
    expect((await rpc(SALES, "purchase_short", { sales_order_id: big.id })).status).toBe(403);
  });

  it("asks for a supplier when a short product has none", async () => {
    const made = await restFetch(ADMIN, "product", {
      method: "POST",
      headers: { Prefer: "return=representation" },
      body: JSON.stringify({ sku: "STK-LEVEL-3", name: "Stock level test flange", cost: "3", price: "9" }),
    });
    const bare = (made.body as Array<{ id: number }>)[0].id;
    const so = await draft(ADMIN, "sales_order", {}, [{ product_id: bare, qty: "4" }]);
    await act(ADMIN, "sales_order", so.id, "submit");
    const res = await rpc(PROCUREMENT, "purchase_short", { sales_order_id: so.id });
    expect(res.status).toBe(422);
    expect(res.text).toContain("Choose the supplier to buy Stock level test flange from");
    const given = (await ok(PROCUREMENT, "purchase_short", {
      sales_order_id: so.id,
      supplier_id: otherSupplier,
      location_id: ubi,
    })) as unknown as { created: Array<{ supplier_id: number; location_id: number }> };
    expect(given.created).toEqual([expect.objectContaining({ supplier_id: otherSupplier, location_id: ubi })]);
  });
});

describe("tenancy", () => {
  it("refuses another workspace's product, location and sales order as if they did not exist", async () => {
    expect((await rpc(OTHER, "stock_card", { product_id: product })).status).toBe(404);
    expect((await rpc(OTHER, "stock_levels", { location_id: tuas })).status).toBe(404);
    expect((await rpc(OTHER, "purchase_short", { sales_order_id: order.id })).status).toBe(404);
    const theirs = (await ok(OTHER, "stock_levels", { product_ids: [product] })) as unknown as Levels;
    expect(theirs.rows).toEqual([]);
    const levelsThere = await restFetch(OTHER, "reorder_level?select=id");
    expect(levelsThere.body).toEqual([]);
  });
});
