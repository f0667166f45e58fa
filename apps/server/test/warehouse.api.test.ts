import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { customer, type Doc, ok, read } from "./documents-helpers.ts";
import { openingStock } from "./own-server-helpers.ts";
import { ADMIN, order, posted, query, STORE, settings, world } from "./purchasing-helpers.ts";
import { restFetch, tokenFor } from "./rest-helpers.ts";

// Issue 22 "Warehouse" (DESIGN §2.3.2): the warehouse app's commands make the back office's documents through the
// engine — a purchase order received in parts (more than ordered needs a reason), pick lists in bin order whose
// finish makes the delivery order draft with the picked quantities, moves as transfers, blind stock counts a manager
// applies (Dr/Cr 5010 Stock Adjustment / 1200 Stock and the stock moves). Each runs once per Idempotency-Key;
// Lite, drivers and salespeople are refused.

const w = world();
const LITE = "owner@lite.test";
const DRIVER = "driver@demo.test";
const SALES = "sales@demo.test";
const PHOTO = `data:image/jpeg;base64,${Buffer.from("the supplier's delivery order, photographed").toString("base64")}`;

type Answer = { status: number; text: string; body: Record<string, unknown> & { message?: string; code?: string } };
const call = async (email: string, fn: string, args: unknown, key?: string) =>
  (await restFetch(email, `rpc/${fn}`, {
    method: "POST",
    body: JSON.stringify(args),
    headers: key ? { "idempotency-key": key } : {},
  })) as unknown as Answer;

const onHand = async (product: number, location: number) =>
  (
    await query<{ n: string }>(
      w,
      sql`select coalesce(sum(qty), 0)::numeric(14,3)::text as n from stock_move
        where workspace_id = ${w.ws}::uuid and product_id = ${product} and location_id = ${location}`,
    )
  )[0].n;

// A stock-tracked product of its own (so other files' stock cannot disturb the figures), at cost `cost`.
async function newProduct(name: string, cost = "4"): Promise<number> {
  const made = await restFetch(ADMIN, "product", {
    method: "POST",
    headers: { prefer: "return=representation" },
    body: JSON.stringify({ sku: `WH-${name}-${Date.now()}`, name, price: "20", cost, unit: "pc" }),
  });
  expect(made.status, made.text).toBe(201);
  return (made.body as unknown as Array<{ id: number }>)[0].id;
}

describe("receiving against purchase orders", () => {
  it("lists what is due and receives one order in two parts", async () => {
    const po = await order(w, [{ qty: "5", price: "8" }], { expected_date: "2031-01-01" });
    const due = await ok(STORE, "warehouse_receipts_due", {});
    const mine = (due.orders as unknown as Array<{ id: number; lines: Array<{ remaining: string }> }>).find(
      (o) => o.id === po.id,
    );
    expect(mine?.lines[0].remaining).toBe("5.000");
    const before = await onHand(w.items[0].id, w.tuas);

    const first = await ok(STORE, "warehouse_receive", {
      purchase_order_id: po.id,
      lines: [{ line_id: po.lines[0].id, qty: "3" }],
      supplier_do_number: "SUP-DO-1",
      photo: PHOTO,
    });
    expect(first.status).toBe("to_bill");
    expect(first.number).toMatch(/^SDO-\d{4}-\d{5}$/);
    expect(first.source_id).toBe(po.id);
    expect(first.lines[0].qty).toBe("3.000");
    expect(await posted(w, "supplier_delivery_order", first.id)).toEqual({ "1200": "24.00", "2100": "-24.00" });
    expect((await read(STORE, "purchase_order", po.id)).lines[0].qty_received).toBe("3.000");
    // The supplier's delivery order photographed at the door is a file of the receipt.
    const files = await query<{ name: string; mime_type: string }>(
      w,
      sql`select name, mime_type from storage_object where workspace_id = ${w.ws}::uuid
        and name like ${`documents/supplier_delivery_order/${first.id}/%`}`,
    );
    expect(files).toEqual([
      { name: `documents/supplier_delivery_order/${first.id}/supplier-delivery-order.jpg`, mime_type: "image/jpeg" },
    ]);

    const again = await ok(STORE, "warehouse_receipts_due", {});
    const left = (again.orders as unknown as Array<{ id: number; lines: Array<{ remaining: string }> }>).find(
      (o) => o.id === po.id,
    );
    expect(left?.lines[0].remaining).toBe("2.000");

    const second = await ok(STORE, "warehouse_receive", {
      purchase_order_id: po.id,
      lines: [{ line_id: po.lines[0].id, qty: "2" }],
    });
    expect(second.status).toBe("to_bill");
    const received = await read(STORE, "purchase_order", po.id);
    expect(received.lines[0].qty_received).toBe("5.000");
    expect(received.status).toBe("to_bill");
    expect(Number(await onHand(w.items[0].id, w.tuas)) - Number(before)).toBe(5);
    const gone = await ok(STORE, "warehouse_receipts_due", {});
    expect((gone.orders as unknown as Array<{ id: number }>).some((o) => o.id === po.id)).toBe(false);
  });

  it("receiving more than ordered needs a reason, which the receipt keeps", async () => {
    const po = await order(w, [{ qty: "4", price: "8" }]);
    const refused = await call(STORE, "warehouse_receive", {
      purchase_order_id: po.id,
      lines: [{ line_id: po.lines[0].id, qty: "5" }],
    });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.message).toMatch(/5 of .* is more than the 4 left to receive on line 1: give the reason/);
    expect(JSON.stringify(refused.body)).toContain("over_reason");
    await settings({ over_delivery_allowance: "50" });
    try {
      const over = await ok(STORE, "warehouse_receive", {
        purchase_order_id: po.id,
        lines: [{ line_id: po.lines[0].id, qty: "5" }],
        over_reason: "Supplier sent a spare",
      });
      expect(over.status).toBe("to_bill");
      expect(over.notes).toBe("Received more than ordered: Supplier sent a spare");
      expect((await read(STORE, "purchase_order", po.id)).lines[0].qty_received).toBe("5.000");
    } finally {
      await settings({ over_delivery_allowance: "0" });
    }
    // Beyond the workspace's allowance, even a reason does not take more than the engine allows.
    const po2 = await order(w, [{ qty: "2", price: "8" }]);
    const beyond = await call(STORE, "warehouse_receive", {
      purchase_order_id: po2.id,
      lines: [{ line_id: po2.lines[0].id, qty: "3" }],
      over_reason: "Spare",
    });
    expect(beyond.status, beyond.text).toBe(409);
    expect(beyond.body.message).toBe("Only 2 are left to receive on line 1, not 3");
  });
});

describe("pick lists", () => {
  it("lists lines in bin order, takes scanned quantities and makes the delivery order draft", async () => {
    const a = await newProduct("Zinc bracket");
    const b = await newProduct("Anchor bolt");
    await openingStock(w, [{ id: a }, { id: b }], w.tuas, 10);
    for (const [product, bin] of [
      [a, "A-01"],
      [b, "C-07"],
    ] as const) {
      const res = await restFetch(STORE, "product_bin", {
        method: "POST",
        body: JSON.stringify({ product_id: product, location_id: w.tuas, bin }),
      });
      expect(res.status, res.text).toBe(201);
    }
    // The order lists b first; the pick list walks a (A-01) then b (C-07).
    const so = await ok(ADMIN, "document_save", {
      type: "sales_order",
      header: { company_id: await customer(ADMIN) },
      lines: [
        { product_id: b, qty: "3" },
        { product_id: a, qty: "4" },
      ],
    });
    await ok(ADMIN, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
    const pl = await ok(STORE, "pick_list_make", { source_type: "sales_order", source_id: so.id, location_id: w.tuas });
    expect(pl.number).toMatch(/^PL-\d{4}-\d{5}$/);
    expect(pl.status).toBe("picking");
    expect(pl.lines.map((l) => [l.product_id, l.bin, l.qty])).toEqual([
      [a, "A-01", "4.000"],
      [b, "C-07", "3.000"],
    ]);
    const tooMany = await call(STORE, "pick_list_pick", { id: pl.id, line_id: pl.lines[0].id, qty_picked: "5" });
    expect(tooMany.status, tooMany.text).toBe(422);
    expect(tooMany.body.message).toBe("Only 4 of Zinc bracket are to be picked on line 1");
    const empty = await call(STORE, "pick_list_finish", { id: pl.id });
    expect(empty.status, empty.text).toBe(409);
    await ok(STORE, "pick_list_pick", { id: pl.id, line_id: pl.lines[0].id, qty_picked: "4" });
    const picked = await ok(STORE, "pick_list_pick", { id: pl.id, line_id: pl.lines[1].id, qty_picked: "2" });
    expect(picked.lines.map((l) => l.qty_picked)).toEqual(["4.000", "2.000"]);
    const done = await ok(STORE, "pick_list_finish", { id: pl.id });
    expect(done.status).toBe("done");
    const delivery = await read(ADMIN, "delivery_order", Number(done.delivery_order_id));
    expect(delivery.status).toBe("draft");
    expect(delivery.source_type).toBe("sales_order");
    expect(delivery.location_id).toBe(w.tuas);
    const qty = Object.fromEntries(delivery.lines.map((l) => [l.product_id, l.qty]));
    expect(qty).toEqual({ [a]: "4.000", [b]: "2.000" });
    const late = await call(STORE, "pick_list_pick", { id: pl.id, line_id: pl.lines[1].id, qty_picked: "3" });
    expect(late.status, late.text).toBe(409);
  });

  it("from a released delivery instruction: finishing marks it picked and delivers through it", async () => {
    const a = await newProduct("Hinge");
    await openingStock(w, [{ id: a }], w.tuas, 5);
    const so = await ok(ADMIN, "document_save", {
      type: "sales_order",
      header: { company_id: await customer(ADMIN) },
      lines: [{ product_id: a, qty: "5" }],
    });
    await ok(ADMIN, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
    const di = await ok(ADMIN, "document_convert", {
      type: "sales_order",
      id: so.id,
      to: "delivery_instruction",
      header: { planned_date: "2031-02-01", location_id: w.tuas },
    });
    await ok(ADMIN, "document_transition", { type: "delivery_instruction", id: di.id, action: "release" });
    const pl = await ok(STORE, "pick_list_make", { source_type: "delivery_instruction", source_id: di.id });
    expect(pl.location_id).toBe(w.tuas);
    await ok(STORE, "pick_list_pick", { id: pl.id, line_id: pl.lines[0].id, qty_picked: "5" });
    const done = await ok(STORE, "pick_list_finish", { id: pl.id });
    expect((await read(ADMIN, "delivery_instruction", di.id)).status).toBe("picked");
    const delivery = await read(ADMIN, "delivery_order", Number(done.delivery_order_id));
    expect(delivery.source_type).toBe("delivery_instruction");
    expect(delivery.lines[0].qty).toBe("5.000");
  });
});

describe("moves and counts", () => {
  it("moves a product between two locations as a received transfer", async () => {
    const a = await newProduct("Cable tie");
    await openingStock(w, [{ id: a }], w.tuas, 6);
    const moved = await ok(STORE, "warehouse_move", {
      product_id: a,
      from_location_id: w.tuas,
      to_location_id: w.ubi,
      qty: "4",
    });
    expect(moved.status).toBe("received");
    expect(moved.number).toMatch(/^GTF-/);
    expect(await onHand(a, w.tuas)).toBe("2.000");
    expect(await onHand(a, w.ubi)).toBe("4.000");
    const same = await call(STORE, "warehouse_move", {
      product_id: a,
      from_location_id: w.ubi,
      to_location_id: w.ubi,
      qty: "1",
    });
    expect(same.status).toBe(422);
    const short = await call(STORE, "warehouse_move", {
      product_id: a,
      from_location_id: w.tuas,
      to_location_id: w.ubi,
      qty: "3",
    });
    expect(short.status, short.text).toBe(409);
    expect(short.body.message).toMatch(/^Not enough Cable tie at .*: 2 on hand, 3 needed$/);
  });

  it("a blind count is submitted without the system quantity; the manager's apply posts the difference", async () => {
    const a = await newProduct("Count A", "4");
    const b = await newProduct("Count B", "10");
    await openingStock(w, [{ id: a }, { id: b }], w.ubi, 10);
    const sheet = await ok(STORE, "stock_count_sheet", { location_id: w.ubi });
    const listed = sheet.products as unknown as Array<Record<string, unknown>>;
    expect(listed.some((p) => p.product_id === a)).toBe(true);
    expect(JSON.stringify(sheet)).not.toMatch(/qty/);
    const counted = await ok(STORE, "stock_count_submit", {
      location_id: w.ubi,
      lines: [
        { product_id: a, counted_qty: "7" },
        { product_id: b, counted_qty: "11" },
      ],
    });
    expect(counted.status).toBe("submitted");
    expect(counted.number).toMatch(/^SC-\d{4}-\d{5}$/);
    expect(JSON.stringify(counted)).not.toMatch(/system|difference/);
    // Nor can the counter read it afterwards: counting is blind.
    expect((await restFetch(STORE, "stock_count_line?select=system_qty")).status).toBe(403);
    const id = Number(counted.id);
    const doc = await read(ADMIN, "stock_count", id);
    const lines = Object.fromEntries(doc.lines.map((l) => [l.product_id, [l.system_qty, l.counted_qty, l.difference]]));
    expect(lines).toEqual({ [a]: ["10.000", "7.000", "-3.000"], [b]: ["10.000", "11.000", "1.000"] });
    // Nothing moves until a manager applies: the storekeeper may not.
    expect(await onHand(a, w.ubi)).toBe("10.000");
    const mine = await call(STORE, "document_transition", {
      type: "stock_count",
      id,
      action: "apply",
      reason: "Cycle count",
    });
    expect(mine.status, mine.text).toBe(403);
    const bare = await call(ADMIN, "document_transition", { type: "stock_count", id, action: "apply" });
    expect(bare.status, bare.text).toBe(422);
    expect(await onHand(a, w.ubi)).toBe("10.000");
    const applied = await ok(ADMIN, "document_transition", {
      type: "stock_count",
      id,
      action: "apply",
      reason: "Cycle count",
    });
    expect(applied.status).toBe("applied");
    expect(await onHand(a, w.ubi)).toBe("7.000");
    expect(await onHand(b, w.ubi)).toBe("11.000");
    // Lost 3 × 4.00, found 1 × 10.00: a net loss of 2.00.
    expect(await posted(w, "stock_count", id)).toEqual({ "1200": "-2.00", "5010": "2.00" });
    const twice = await call(ADMIN, "document_transition", {
      type: "stock_count",
      id,
      action: "apply",
      reason: "Again",
    });
    expect(twice.status).toBe(409);

    // It prints, as every document does.
    const pdf = await fetch(`${w.server.url}/api/documents/stock_count/${id}/pdf`, {
      headers: { authorization: `Bearer ${await tokenFor(ADMIN)}` },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toMatch(/application\/pdf/);

    // A gain alone posts the other way round.
    const gain = await ok(STORE, "stock_count_submit", {
      location_id: w.ubi,
      lines: [{ product_id: b, counted_qty: "13" }],
    });
    await ok(ADMIN, "document_transition", {
      type: "stock_count",
      id: Number(gain.id),
      action: "apply",
      reason: "Found behind the shelf",
    });
    expect(await posted(w, "stock_count", Number(gain.id))).toEqual({ "1200": "20.00", "5010": "-20.00" });
    expect(await onHand(b, w.ubi)).toBe("13.000");
  });
});

describe("exactly once, tiers and roles", () => {
  it("replays each new command's answer for the same Idempotency-Key without running it again", async () => {
    const a = await newProduct("Replay");
    await openingStock(w, [{ id: a }], w.tuas, 20);
    const po = await order(w, [{ qty: "6", price: "8" }]);
    const so = await ok(ADMIN, "document_save", {
      type: "sales_order",
      header: { company_id: await customer(ADMIN) },
      lines: [{ product_id: a, qty: "2" }],
    });
    await ok(ADMIN, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
    const count = async (table: string, where = sql`true`) =>
      (
        await query<{ n: number }>(
          w,
          sql`select count(*)::int as n from ${sql.identifier(table)} where workspace_id = ${w.ws}::uuid and ${where}`,
        )
      )[0].n;
    const twice = async (fn: string, args: unknown) => {
      const key = crypto.randomUUID();
      const one = await call(STORE, fn, args, key);
      expect(one.status, one.text).toBe(200);
      const two = await call(STORE, fn, args, key);
      expect(two.status, two.text).toBe(200);
      expect(two.body).toEqual(one.body);
      return one.body as unknown as Doc;
    };
    const receipts = await count("supplier_delivery_order");
    await twice("warehouse_receive", { purchase_order_id: po.id, lines: [{ line_id: po.lines[0].id, qty: "2" }] });
    expect(await count("supplier_delivery_order")).toBe(receipts + 1);
    expect((await read(STORE, "purchase_order", po.id)).lines[0].qty_received).toBe("2.000");

    const lists = await count("pick_list");
    const pl = await twice("pick_list_make", { source_type: "sales_order", source_id: so.id, location_id: w.tuas });
    expect(await count("pick_list")).toBe(lists + 1);
    await twice("pick_list_pick", { id: pl.id, line_id: pl.lines[0].id, qty_picked: "2" });
    const deliveries = await count("delivery_order");
    await twice("pick_list_finish", { id: pl.id });
    expect(await count("delivery_order")).toBe(deliveries + 1);

    const transfers = await count("goods_transfer_form");
    await twice("warehouse_move", { product_id: a, from_location_id: w.tuas, to_location_id: w.ubi, qty: "1" });
    expect(await count("goods_transfer_form")).toBe(transfers + 1);
    expect(await onHand(a, w.ubi)).toBe("1.000");

    const counts = await count("stock_count");
    await twice("stock_count_submit", { location_id: w.ubi, lines: [{ product_id: a, counted_qty: "1" }] });
    expect(await count("stock_count")).toBe(counts + 1);
  });

  it("Lite is refused with the tier message; drivers and salespeople may not receive, pick, move or count", async () => {
    for (const fn of ["warehouse_receipts_due", "stock_count_submit"]) {
      const res = await call(
        LITE,
        fn,
        fn === "stock_count_submit" ? { location_id: 1, lines: [{ product_id: 1, counted_qty: "1" }] } : {},
      );
      expect(res.status, res.text).toBe(403);
      expect(res.body.code).toBe("tier_required");
      expect(res.body.message).toMatch(/Pro tier/);
    }
    const po = await order(w, [{ qty: "1", price: "8" }]);
    for (const who of [DRIVER, SALES]) {
      for (const [fn, args] of [
        ["warehouse_receive", { purchase_order_id: po.id, lines: [{ line_id: po.lines[0].id, qty: "1" }] }],
        ["stock_count_submit", { location_id: w.tuas, lines: [{ product_id: w.items[0].id, counted_qty: "1" }] }],
        ["warehouse_move", { product_id: w.items[0].id, from_location_id: w.tuas, to_location_id: w.ubi, qty: "1" }],
        ["pick_list_make", { source_type: "sales_order", source_id: 1 }],
      ] as const) {
        const res = await call(who, fn, args);
        expect(res.status, `${who} ${fn}: ${res.text}`).toBe(403);
      }
    }
    expect((await read(ADMIN, "purchase_order", po.id)).lines[0].qty_received).toBe("0.000");
  });
});
