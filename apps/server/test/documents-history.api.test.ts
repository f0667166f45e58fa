import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, inRequest } from "../src/platform/db/database.ts";
import { act, draft, ok, type Product, products, rpc } from "./documents-helpers.ts";
import { startTestServer, type TestServer } from "./harness.ts";
import { useServer } from "./http.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 10 §3: the document page's audit panel (document_history) and the line picker's stock (stock_on_hand).
// A server of its own, so the test can put opening stock in both workspaces.

const ADMIN = "admin@demo.test";
const SALES = "sales@demo.test";
const DRIVER = "driver@demo.test";
const THEM = "owner@pro.test";

type Event = {
  action: string;
  from_status: string | null;
  to_status: string | null;
  reason: string | null;
  user_name: string | null;
  at: string;
};
type OnHand = { product_id: number; location_id: number; qty: string };

let server: TestServer;
let db: Db;
let items: Product[] = [];
const locations: number[] = []; // two locations of this test's own, so the seed's stock does not count
let theirLocation = 0;

const asWorkspace = async <T>(slug: string, query: ReturnType<typeof sql>): Promise<T[]> => {
  const ws = ((await db.execute(sql`select id from workspace where slug = ${slug}`)).rows[0] as { id: string }).id;
  return inRequest(
    db,
    { workspaceId: ws, userId: null, role: "authenticated" },
    async (tx) => (await tx.execute(query)).rows as T[],
  );
};

const newLocation = async (slug: string, code: string) =>
  Number(
    (
      await asWorkspace<{ id: string }>(
        slug,
        sql`insert into location (workspace_id, code, name)
          values (nullif(current_setting('app.workspace_id', true), '')::uuid, ${code}, ${code}) returning id`,
      )
    )[0].id,
  );

const opening = (slug: string, productId: number, locationId: number, qty: string) =>
  asWorkspace(
    slug,
    sql`insert into stock_move (workspace_id, product_id, location_id, qty, unit_cost, doc_type, doc_id)
      select workspace_id, ${productId}, ${locationId}, ${qty}, 1, 'opening', 0 from location where id = ${locationId}`,
  );

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: "silent" });
  useServer(server.url);
  db = server.running.database.db;
  items = await products(ADMIN, 2);
  locations.push(await newLocation("demo", "HIST-A"), await newLocation("demo", "HIST-B"));
  await opening("demo", items[0].id, locations[0], "10");
  await opening("demo", items[0].id, locations[0], "-2.5");
  await opening("demo", items[0].id, locations[1], "4");
  await opening("demo", items[1].id, locations[1], "7");
  await opening("demo", items[1].id, locations[0], "3");
  await opening("demo", items[1].id, locations[0], "-3"); // nets to nothing: left out
  // pro's stock of its own product must never show in demo's answer.
  const theirs = (await restFetch(THEM, "product?select=id&order=id&limit=1")).body as Array<{ id: number }>;
  theirLocation = await newLocation("pro", "HIST-THEIRS");
  await opening("pro", theirs[0].id, theirLocation, "99");
}, 300_000);
afterAll(() => server?.close());

describe("document_history", () => {
  it("lists who did what, when, from → to, with the reason, oldest first", async () => {
    const quote = await draft(SALES);
    await ok(SALES, "document_save", {
      type: "quotation",
      id: quote.id,
      header: { company_id: quote.company_id, notes: "Call first" },
      lines: [{ product_id: items[0].id, qty: "3" }],
    });
    await ok(SALES, "document_transition", { type: "quotation", id: quote.id, action: "submit" });
    expect((await act(ADMIN, "quotation", quote.id, "mark_lost", "Went with a cheaper supplier")).status).toBe(200);

    const res = await rpc(SALES, "document_history", { type: "quotation", id: quote.id });
    expect(res.status, res.text).toBe(200);
    const events = res.body as Event[];
    expect(events.map((e) => [e.action, e.from_status, e.to_status])).toEqual([
      ["create", null, "draft"],
      ["save", "draft", "draft"],
      ["submit", "draft", "sent"],
      ["mark_lost", "sent", "lost"],
    ]);
    expect(events[3].reason).toBe("Went with a cheaper supplier");
    expect(events[0].user_name).toBeTruthy();
    expect(events[3].user_name).not.toBe(events[0].user_name);
    expect(Date.parse(events[0].at)).toBeLessThanOrEqual(Date.parse(events[3].at));
  });

  it("answers another workspace's document as not found, and refuses who may not read the type", async () => {
    const quote = await draft(ADMIN);
    const them = await rpc(THEM, "document_history", { type: "quotation", id: quote.id });
    expect(them.status).toBe(404);
    expect((them.body as { message: string }).message).toBe(`There is no quotation ${quote.id} in this workspace`);
    const driver = await rpc(DRIVER, "document_history", { type: "quotation", id: quote.id });
    expect(driver.status).toBe(403);
    expect((driver.body as { message: string }).message).toMatch(/permission to read quotations/);
  });

  it("refuses an unknown type or a bad id with a clear 422", async () => {
    const unknown = await rpc(ADMIN, "document_history", { type: "spaceship", id: 1 });
    expect(unknown.status).toBe(422);
    expect((unknown.body as { message: string }).message).toMatch(/Unknown document type "spaceship"/);
    expect((await rpc(ADMIN, "document_history", { type: "quotation", id: -1 })).status).toBe(422);
  });
});

describe("stock_on_hand", () => {
  const mine = (rows: OnHand[]) => rows.filter((r) => locations.includes(r.location_id));

  it("sums the moves per product and location, this workspace only", async () => {
    const res = await rpc(SALES, "stock_on_hand", { product_ids: items.map((p) => p.id) });
    expect(res.status, res.text).toBe(200);
    expect(mine(res.body as OnHand[])).toEqual([
      { product_id: items[0].id, location_id: locations[0], qty: "7.500" },
      { product_id: items[0].id, location_id: locations[1], qty: "4.000" },
      { product_id: items[1].id, location_id: locations[1], qty: "7.000" },
    ]);
    const ours = (await rpc(ADMIN, "stock_on_hand", {})).body as OnHand[];
    expect(ours.some((r) => r.location_id === theirLocation)).toBe(false);
    const theirs = (await rpc(THEM, "stock_on_hand", {})).body as OnHand[];
    expect(theirs.filter((r) => r.location_id === theirLocation).map((r) => r.qty)).toEqual(["99.000"]);
    expect(theirs.some((r) => locations.includes(r.location_id))).toBe(false);
  });

  it("narrows to one location; an empty list of products is an empty answer; bad input is a 422", async () => {
    const res = await rpc(ADMIN, "stock_on_hand", { location_id: locations[1] });
    expect((res.body as OnHand[]).map((r) => [r.product_id, r.location_id, r.qty])).toEqual([
      [items[0].id, locations[1], "4.000"],
      [items[1].id, locations[1], "7.000"],
    ]);
    expect((await rpc(ADMIN, "stock_on_hand", { product_ids: [] })).body).toEqual([]);
    expect((await rpc(ADMIN, "stock_on_hand", { product_ids: ["x"] })).status).toBe(422);
  });
});

describe("document_list_totals", () => {
  type Totals = { currency: string; count: number; total: string; outstanding: string | null };

  it("adds up exactly the documents the list's filters match, in the caller's workspace", async () => {
    const a = await draft(SALES, "quotation", {}, [{ product_id: items[0].id, qty: "3" }]);
    const b = await draft(SALES, "quotation", {}, [{ product_id: items[1].id, qty: "7" }]);
    const ids = ["id", `in.(${a.id},${b.id})`] as const;
    const res = await rpc(SALES, "document_list_totals", { type: "quotation", filters: [ids] });
    expect(res.status, res.text).toBe(200);
    const sum = (Number(a.total) + Number(b.total)).toFixed(2);
    expect(res.body as Totals[]).toEqual([{ currency: "SGD", count: 2, total: sum, outstanding: null }]);
    const one = await rpc(SALES, "document_list_totals", {
      type: "quotation",
      filters: [ids, ["or", `(number.is.null,id.eq.${a.id})`], ["status", "eq.draft"]],
    });
    expect((one.body as Totals[])[0].count).toBe(2);
    const them = await rpc(THEM, "document_list_totals", { type: "quotation", filters: [ids] });
    expect(them.body).toEqual([]);
  });

  it("gives invoices their outstanding; refuses who may not read the type and what is not a filter", async () => {
    const inv = await rpc(ADMIN, "document_list_totals", { type: "invoice", filters: [["status", "eq.draft"]] });
    expect(inv.status, inv.text).toBe(200);
    for (const r of inv.body as Totals[]) expect(r.outstanding).not.toBeNull();
    expect((await rpc(DRIVER, "document_list_totals", { type: "quotation", filters: [] })).status).toBe(403);
    const bad = await rpc(ADMIN, "document_list_totals", { type: "quotation", filters: [["order", "id.desc"]] });
    expect(bad.status).toBe(422);
    expect((bad.body as { message: string }).message).toBe('"order" is not a filter of the list');
  });
});
