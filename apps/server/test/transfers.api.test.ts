import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type Doc, ok, type Product, products, read, rpc } from "./documents-helpers.ts";
import { locationsByCode, openingStock, ownServer } from "./own-server-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 11: goods transfer forms — dispatch into the workspace's transit location, receive per line with the
// shortfall recorded and written off (Dr 5010 / Cr 1210) with its reason, over-receipt refused, cancel in transit
// puts the goods back; stock at every location is Σ moves at every step and every entry balances; the matrix;
// warehouse tracking is Pro; the transit location cannot be transferred to or delivered from.

const WAREHOUSE = "warehouse@demo.test";
const SALES = "sales@demo.test";
const LITE = "owner@lite.test";
const own = ownServer();
let items: Product[] = [];
let tuas = 0;
let ubi = 0;
const { q } = own;

beforeAll(async () => {
  items = await products(WAREHOUSE, 2);
  const locs = await locationsByCode(WAREHOUSE);
  tuas = locs["WH-TUAS"] ?? 0;
  ubi = locs["WH-UBI"] ?? 0;
  await openingStock(own, items, tuas, 100);
}, 600_000);

const message = (res: { body: unknown }) => (res.body as { message: string }).message;
const save = (lines: Array<Record<string, unknown>>, header: Record<string, unknown> = {}, email = WAREHOUSE) =>
  ok(email, "document_save", {
    type: "goods_transfer_form",
    header: { from_location_id: tuas, to_location_id: ubi, ...header },
    lines,
  });
const run = (id: number, action: string, values?: Record<string, unknown>, email = WAREHOUSE) =>
  rpc(email, "document_transition", { type: "goods_transfer_form", id, action, ...(values ? { values } : {}) });

// Σ moves per location of one product, the transit location found by its mark.
async function stock(productId: number): Promise<Record<string, string>> {
  const rows = await q<{ code: string; n: string }>(sql`select l.code, sum(m.qty)::text as n from stock_move m
    join location l on l.workspace_id = m.workspace_id and l.id = m.location_id
    where m.workspace_id = ${own.ws}::uuid and m.product_id = ${productId} group by l.code`);
  return Object.fromEntries(rows.map((r) => [r.code, String(Number(r.n))]));
}

const journal = (id: number) =>
  q<{ entry: string; reversal_of: string | null; account_code: string; debit: string; credit: string }>(sql`
    select e.id::text as entry, e.reversal_of::text as reversal_of, l.account_code, l.debit::text as debit,
      l.credit::text as credit
    from journal_entry e join journal_line l on l.workspace_id = e.workspace_id and l.entry_id = e.id
    where e.workspace_id = ${own.ws}::uuid and e.source_type = 'goods_transfer_form' and e.source_id = ${id}
    order by e.id, l.line_no`);

function balanced(rows: Awaited<ReturnType<typeof journal>>) {
  const by = new Map<string, number>();
  for (const r of rows)
    by.set(r.entry, (by.get(r.entry) ?? 0) + Math.round((Number(r.debit) - Number(r.credit)) * 100));
  for (const cents of by.values()) expect(cents).toBe(0);
}

const cents = (qty: number, cost: string) => (Math.round(qty * Number(cost) * 100) / 100).toFixed(2);

describe("goods transfer forms", () => {
  it("dispatch into transit, receive with a shortfall recorded and written off: stock = Σ moves at every step", async () => {
    const [a, b] = items;
    const d = await save([
      { product_id: a.id, qty: "10" },
      { product_id: b.id, qty: "4" },
    ]);
    expect(d).toMatchObject({ status: "draft", number: null, from_location_id: tuas, to_location_id: ubi });
    expect(d.company_id).toBeNull();
    // Valued at cost, out of scope for GST, whatever price was sent.
    const priced = await save([{ product_id: a.id, qty: "2", unit_price: "999", tax_code: "SR" }]);
    expect(priced.lines[0]).toMatchObject({ unit_price: Number(a.cost).toFixed(4), tax_code: "OS" });
    expect(priced).toMatchObject({ tax_total: "0.00", total: cents(2, a.cost) });
    const sent = (await run(d.id, "submit")).body as Doc;
    expect(sent).toMatchObject({ status: "in_transit", number: expect.stringMatching(/^GTF-\d{4}-\d{5}$/) });
    expect(await stock(a.id)).toEqual({ "WH-TUAS": "90", TRANSIT: "10" });
    expect(await stock(b.id)).toEqual({ "WH-TUAS": "96", TRANSIT: "4" });
    const dispatched = await journal(d.id);
    const value = (Number(cents(10, a.cost)) + Number(cents(4, b.cost))).toFixed(2);
    expect(dispatched.map((r) => [r.account_code, r.debit, r.credit])).toEqual([
      ["1210", value, "0.00"],
      ["1200", "0.00", value],
    ]);

    // A shortfall needs its reason; receiving more than was sent is refused; neither changes anything.
    const lines = sent.lines;
    const noReason = await run(d.id, "receive", {
      qty_received: [
        { line_id: lines[0].id, qty: "8" },
        { line_id: lines[1].id, qty: "4" },
      ],
    });
    expect(noReason.status).toBe(422);
    expect(message(noReason)).toBe("Line 1 is short by 2: give the reason for the shortfall");
    const over = await run(d.id, "receive", { qty_received: [{ line_id: lines[1].id, qty: "5" }] });
    expect(over.status).toBe(422);
    expect(message(over)).toBe("Line 2: at most 4 can be received, not 5");
    const negative = await run(d.id, "receive", { qty_received: [{ line_id: lines[1].id, qty: "-1" }] });
    expect(negative.status).toBe(422);
    expect(message(negative)).toBe("The quantity received on line 2 cannot be less than 0");
    expect((await read(WAREHOUSE, "goods_transfer_form", d.id)).status).toBe("in_transit");
    expect(await stock(a.id)).toEqual({ "WH-TUAS": "90", TRANSIT: "10" });

    const got = (
      await run(d.id, "receive", {
        qty_received: [
          { line_id: lines[0].id, qty: "8" },
          { line_id: lines[1].id, qty: "4" },
        ],
        shortfall_reason: "Two cartons crushed in the lorry",
      })
    ).body as Doc;
    expect(got).toMatchObject({ status: "received", shortfall_reason: "Two cartons crushed in the lorry" });
    expect(got.lines.map((l) => [l.qty_received, l.qty_short])).toEqual([
      ["8.000", "2.000"],
      ["4.000", "0.000"],
    ]);
    expect(await stock(a.id)).toEqual({ "WH-TUAS": "90", TRANSIT: "0", "WH-UBI": "8" });
    expect(await stock(b.id)).toEqual({ "WH-TUAS": "96", TRANSIT: "0", "WH-UBI": "4" });
    const all = await journal(d.id);
    balanced(all);
    const receipt = all.filter((r) => r.entry !== dispatched[0].entry);
    const arrived = (Number(cents(8, a.cost)) + Number(cents(4, b.cost))).toFixed(2);
    const short = (Number(value) - Number(arrived)).toFixed(2);
    expect(receipt.map((r) => [r.account_code, r.debit, r.credit])).toEqual([
      ["1200", arrived, "0.00"],
      ["5010", short, "0.00"],
      ["1210", "0.00", value],
    ]);
    // Received is final.
    const again = await run(d.id, "cancel");
    expect(again.status).toBe(409);
    expect(message(again)).toBe("A received goods transfer form cannot be cancelled");
  });

  it("receives everything when no quantities are given; cancel in transit puts the goods back", async () => {
    const [a] = items;
    const before = await stock(a.id);
    const full = await save([{ product_id: a.id, qty: "3" }]);
    await run(full.id, "submit");
    const got = (await run(full.id, "receive")).body as Doc;
    expect(got.lines[0]).toMatchObject({ qty_received: "3.000", qty_short: "0.000" });
    const mid = await stock(a.id);
    expect(Number(mid["WH-UBI"])).toBe(Number(before["WH-UBI"] ?? 0) + 3);

    const back = await save([{ product_id: a.id, qty: "5" }]);
    await run(back.id, "submit");
    expect(Number((await stock(a.id))["WH-TUAS"])).toBe(Number(mid["WH-TUAS"]) - 5);
    const cancelled = await run(back.id, "cancel");
    expect(cancelled.status).toBe(200);
    expect(await stock(a.id)).toEqual(mid);
    const rows = await journal(back.id);
    balanced(rows);
    expect(rows.filter((r) => r.reversal_of != null)).toHaveLength(2);
  });

  it("refuses a transfer to the same location, beyond the stock there, and to or from the transit location", async () => {
    const [a] = items;
    const same = await save([{ product_id: a.id, qty: "1" }], { to_location_id: tuas });
    const refused = await run(same.id, "submit");
    expect(refused.status).toBe(409);
    expect(message(refused)).toBe(
      "A goods transfer moves stock between two different locations: choose another to-location",
    );
    const much = await save([{ product_id: a.id, qty: "100000" }]);
    const short = await run(much.id, "submit");
    expect(short.status).toBe(409);
    expect(message(short)).toMatch(/^Not enough .+ at .+ to dispatch: \d+ on hand, 100000 needed$/);
    expect((await read(WAREHOUSE, "goods_transfer_form", much.id)).number).toBeNull();
    const transit = (
      await q<{ location_id: string }>(sql`select location_id::text from system_location
      where workspace_id = ${own.ws}::uuid and kind = 'transit'`)
    )[0].location_id;
    const toTransit = await save([{ product_id: a.id, qty: "1" }], { to_location_id: Number(transit) });
    const sys = await run(toTransit.id, "submit");
    expect(sys.status).toBe(409);
    expect(message(sys)).toBe(
      "In transit holds goods between two locations; goods cannot be transferred from or to it — choose another location",
    );
    // Nor is a supplier's delivery ordered or received into it (the buyer's and the storekeeper's pickers list it).
    const BUYER = "procurement@demo.test";
    const [supplier] = (await restFetch(BUYER, "company?select=id&is_supplier=is.true&limit=1")).body as Doc[];
    const orderFor = async (location: number) => {
      const po = await ok(BUYER, "document_save", {
        type: "purchase_order",
        header: { company_id: supplier.id, location_id: location },
        lines: [{ product_id: a.id, qty: "2", unit_price: "3" }],
      });
      return {
        po,
        sent: await rpc(BUYER, "document_transition", { type: "purchase_order", id: po.id, action: "submit" }),
      };
    };
    // Ordered into it: refused at the save, at the field that names it (issue 21 §1), and nothing is kept.
    const before = (await restFetch(BUYER, "purchase_order?select=id")).body as Doc[];
    const intoTransit = await rpc(BUYER, "document_save", {
      type: "purchase_order",
      header: { company_id: supplier.id, location_id: Number(transit) },
      lines: [{ product_id: a.id, qty: "2", unit_price: "3" }],
    });
    expect(intoTransit.status).toBe(422);
    const refusal = intoTransit.body as { message: string; details: Array<{ field: string; message: string }> };
    expect(refusal.message).toBe("Goods are not sent from or received into In transit; choose a warehouse");
    expect(refusal.details[0].field).toBe("header.location_id");
    expect(((await restFetch(BUYER, "purchase_order?select=id")).body as Doc[]).length).toBe(before.length);
    const { po, sent } = await orderFor(tuas);
    expect(sent.status).toBe(200);
    // Nor is the receipt made into it, as a storekeeper would pick it on the conversion.
    const moved = await rpc(WAREHOUSE, "document_convert", {
      type: "purchase_order",
      id: po.id,
      to: "supplier_delivery_order",
      header: { location_id: Number(transit) },
    });
    expect(moved.status).toBe(422);
    expect((moved.body as { message: string }).message).toBe(
      "Goods are not sent from or received into In transit; choose a warehouse",
    );
    expect((await read(WAREHOUSE, "purchase_order", po.id)).lines[0].qty_received).toBe("0.000");
    // The transit location cannot be deleted.
    const del = await restFetch("admin@demo.test", `location?id=eq.${transit}`, { method: "DELETE" });
    expect(del.status).toBeGreaterThanOrEqual(400);
    expect(del.status).toBeLessThan(500);
  });

  it("has its transition matrix", async () => {
    const [a] = items;
    const status = async (id: number) => (await read(WAREHOUSE, "goods_transfer_form", id)).status;
    const d = await save([{ product_id: a.id, qty: "1" }]);
    expect((await run(d.id, "receive")).status).toBe(409);
    expect(message(await run(d.id, "receive"))).toBe("A draft goods transfer form cannot be received");
    expect((await run(d.id, "cancel")).status).toBe(200);
    expect(await status(d.id)).toBe("cancelled");
    expect(message(await run(d.id, "submit"))).toBe("A cancelled goods transfer form cannot be dispatched");
    expect(message(await run(d.id, "receive"))).toBe("A cancelled goods transfer form cannot be received");
    const e = await save([{ product_id: a.id, qty: "1" }]);
    await run(e.id, "submit");
    expect(message(await run(e.id, "submit"))).toBe("A dispatched goods transfer form cannot be dispatched");
    await run(e.id, "receive");
    expect(message(await run(e.id, "receive"))).toBe("A received goods transfer form cannot be received");
    expect(message(await run(e.id, "submit"))).toBe("A received goods transfer form cannot be dispatched");
  });

  it("is for warehouse staff: a salesperson reads but may not dispatch; Lite lacks warehouse tracking", async () => {
    const [a] = items;
    const d = await save([{ product_id: a.id, qty: "1" }]);
    expect((await restFetch(SALES, `goods_transfer_form?id=eq.${d.id}`)).status).toBe(200);
    const refused = await run(d.id, "submit", undefined, SALES);
    expect(refused.status).toBe(403);
    const lite = await rpc(LITE, "document_save", {
      type: "goods_transfer_form",
      header: { from_location_id: 1, to_location_id: 2 },
      lines: [],
    });
    expect(lite.status).toBe(403);
    expect((await restFetch(LITE, "goods_transfer_form")).status).toBe(403);
  });

  it("refuses another workspace's location and another document's lines", async () => {
    const [a] = items;
    const theirs = ((await restFetch("owner@pro.test", "location?select=id&limit=1")).body as Array<{ id: number }>)[0];
    const forged = await rpc(WAREHOUSE, "document_save", {
      type: "goods_transfer_form",
      header: { from_location_id: tuas, to_location_id: theirs.id },
      lines: [{ product_id: a.id, qty: "1" }],
    });
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect(forged.status).toBeLessThan(500);
    const one = await save([{ product_id: a.id, qty: "1" }]);
    const other = await save([{ product_id: a.id, qty: "1" }]);
    await run(one.id, "submit");
    const wrong = await run(one.id, "receive", { qty_received: [{ line_id: other.lines[0].id, qty: "1" }] });
    expect(wrong.status).toBe(422);
    expect(message(wrong)).toBe(`Line ${other.lines[0].id} is not on this document`);
  });
});
