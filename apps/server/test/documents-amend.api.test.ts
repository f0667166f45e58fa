import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type Doc, draft, ok, type Product, products, read, rpc } from "./documents-helpers.ts";
import { locationsByCode, openingStock, ownServer } from "./own-server-helpers.ts";

// Issue 10 §1: amend (a cancelled document becomes a new draft with its links, numbered NAME-1 when submitted) and
// duplicate (a new draft with the same customer and lines, no links), for every type.

const ADMIN = "admin@demo.test";
const SALES = "sales@demo.test";
const own = ownServer();
let items: Product[] = [];
let tuas = 0;
const { q } = own;

beforeAll(async () => {
  items = await products(ADMIN, 2);
  tuas = (await locationsByCode(ADMIN))["WH-TUAS"];
  await openingStock(own, items, tuas, 1000);
}, 600_000);

const message = (res: { body: unknown }) => (res.body as { message: string }).message;
const submit = (type: string, id: number) => ok(ADMIN, "document_transition", { type, id, action: "submit" });
const cancel = (type: string, id: number) => ok(ADMIN, "document_transition", { type, id, action: "cancel" });
const amend = (type: string, id: number) => ok(ADMIN, "document_amend", { type, id });

describe("amend", () => {
  it("a cancelled quotation: a draft with its lines, numbered -1 on submit, -2 for the amendment's amendment", async () => {
    const qt = await submit("quotation", (await draft(ADMIN)).id);
    const early = await rpc(ADMIN, "document_amend", { type: "quotation", id: qt.id });
    expect(early.status).toBe(409);
    expect(message(early)).toBe(`Only a cancelled quotation can be amended; ${qt.number} is sent`);
    await cancel("quotation", qt.id);
    const a1 = await amend("quotation", qt.id);
    expect(a1).toMatchObject({ status: "draft", number: null, amended_from: qt.id, total: qt.total });
    expect(a1.lines.map((l) => [l.product_id, l.qty])).toEqual(qt.lines.map((l) => [l.product_id, l.qty]));
    const twice = await rpc(ADMIN, "document_amend", { type: "quotation", id: qt.id });
    expect(message(twice)).toBe(`${qt.number} is already amended by a draft quotation`);
    const s1 = await submit("quotation", a1.id);
    expect(s1.number).toBe(`${qt.number}-1`);
    expect(message(await rpc(ADMIN, "document_amend", { type: "quotation", id: qt.id }))).toBe(
      `${qt.number} is already amended by ${qt.number}-1`,
    );
    await cancel("quotation", s1.id);
    const s2 = await submit("quotation", (await amend("quotation", s1.id)).id);
    expect(s2.number).toBe(`${qt.number}-2`);
    const events = await q<{ action: string }>(sql`select action from document_event
      where workspace_id = ${own.ws}::uuid and doc_type = 'quotation' and doc_id = ${a1.id} order by id`);
    expect(events.map((e) => e.action)).toEqual(["amend", "submit", "cancel"]);
  });

  it("a cancelled delivery order keeps its source and draws from the order again", async () => {
    const so = await submit(
      "sales_order",
      (await draft(ADMIN, "sales_order", {}, [{ product_id: items[0].id, qty: "5" }])).id,
    );
    const d = await ok(ADMIN, "document_convert", {
      type: "sales_order",
      id: so.id,
      to: "delivery_order",
      header: { location_id: tuas },
    });
    const dox = await submit("delivery_order", d.id);
    await cancel("delivery_order", dox.id);
    expect((await read(ADMIN, "sales_order", so.id)).lines[0].qty_delivered).toBe("0.000");
    const again = await amend("delivery_order", dox.id);
    expect(again).toMatchObject({ source_type: "sales_order", source_id: so.id, location_id: tuas });
    expect(again.lines[0]).toMatchObject({ source_line_id: so.lines[0].id, qty: "5.000" });
    const done = await submit("delivery_order", again.id);
    expect(done.number).toBe(`${dox.number}-1`);
    expect((await read(ADMIN, "sales_order", so.id)).lines[0].qty_delivered).toBe("5.000");
  });

  it("needs the type's create permission", async () => {
    const inv = await submit(
      "invoice",
      (await draft(ADMIN, "invoice", {}, [{ description: "X", qty: "1", unit_price: "5" }])).id,
    );
    await cancel("invoice", inv.id);
    const res = await rpc(SALES, "document_amend", { type: "invoice", id: inv.id });
    expect(res.status).toBe(403);
  });
});

describe("duplicate", () => {
  it("any type, any status: a new draft with the same customer and lines, no links, no number", async () => {
    const so = await submit(
      "sales_order",
      (await draft(ADMIN, "sales_order", {}, [{ product_id: items[0].id, qty: "4" }])).id,
    );
    const d = await ok(ADMIN, "document_convert", {
      type: "sales_order",
      id: so.id,
      to: "delivery_order",
      header: { location_id: tuas },
    });
    const inv = await submit(
      "invoice",
      (await ok(ADMIN, "document_convert", { type: "sales_order", id: so.id, to: "invoice" })).id,
    );
    const cn = await ok(ADMIN, "document_convert", { type: "invoice", id: inv.id, to: "credit_note" });
    const dn = await draft(ADMIN, "debit_note", { invoice_id: inv.id }, [
      { description: "Fee", qty: "1", unit_price: "3" },
    ]);
    const qt = await draft(ADMIN);
    const docs: Array<[string, Doc]> = [
      ["quotation", qt],
      ["sales_order", so],
      ["delivery_order", d],
      ["invoice", inv],
      ["credit_note", cn],
      ["debit_note", dn],
    ];
    for (const [type, doc] of docs) {
      const copy = await ok(ADMIN, "document_duplicate", { type, id: doc.id });
      expect(copy, type).toMatchObject({
        status: "draft",
        number: null,
        company_id: doc.company_id,
        source_type: null,
        source_id: null,
        amended_from: null,
        total: doc.total,
      });
      expect(copy.id).not.toBe(doc.id);
      expect(
        copy.lines.map((l) => [l.description, l.qty, l.source_line_id]),
        type,
      ).toEqual(doc.lines.map((l) => [l.description, l.qty, null]));
    }
    const grn = await ok(ADMIN, "document_duplicate", {
      type: "goods_return_note",
      id: (
        await ok(ADMIN, "document_save", {
          type: "goods_return_note",
          header: { company_id: so.company_id, location_id: tuas },
          lines: [{ product_id: items[0].id, qty: "1" }],
        })
      ).id,
    });
    expect(grn).toMatchObject({ status: "draft", direction: "customer", location_id: tuas });
    const missing = await rpc(ADMIN, "document_duplicate", { type: "invoice", id: 999999 });
    expect(missing.status).toBe(404);
  });
});
