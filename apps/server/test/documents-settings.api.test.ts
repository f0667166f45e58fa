import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { act, type Doc, draft, ok, type Product, products, rpc } from "./documents-helpers.ts";
import { locationsByCode, openingStock, ownServer } from "./own-server-helpers.ts";

// Issue 10 §1–2: a workspace's document settings — number prefixes, the over-delivery allowance and negative
// stock — read by any member, saved by whoever may change the workspace (owners and admins), and used by numbering,
// the draws and the stock ledger. A server of its own: the settings change the demo workspace.

const ADMIN = "admin@demo.test";
const SALES = "sales@demo.test";
const THEM = "owner@pro.test";
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
  await openingStock(own, items, tuas, 1000);
}, 600_000);

const message = (res: { body: unknown }) => (res.body as { message: string }).message;
const submit = (type: string, id: number) => ok(ADMIN, "document_transition", { type, id, action: "submit" });
const save = (email: string, args: Record<string, unknown>) => rpc(email, "document_settings_save", args);

async function order(qty: string, product = items[0]): Promise<Doc> {
  const d = await draft(ADMIN, "sales_order", {}, [{ product_id: product.id, qty }]);
  return submit("sales_order", d.id);
}
const deliveryDraft = (so: Doc, qty: string, location = tuas) =>
  ok(ADMIN, "document_convert", {
    type: "sales_order",
    id: so.id,
    to: "delivery_order",
    header: { location_id: location },
    lines: [{ line_id: so.lines[0].id, qty }],
  });

describe("document settings", () => {
  it("answer the defaults until saved; only who may change the workspace saves them", async () => {
    const read = await ok(SALES, "document_settings", {});
    expect(read).toMatchObject({
      prefixes: {},
      over_delivery_allowance: "0",
      over_billing_allowance: "0",
      allow_negative_stock: false,
      defaults: { quotation: "QT", credit_note: "CN", goods_return_note: "GRN" },
    });
    const refused = await save(SALES, { allow_negative_stock: true });
    expect(refused.status).toBe(403);
    const bad = await save(ADMIN, { prefixes: { quotation: "1QT" } });
    expect(bad.status).toBe(422);
    expect(message(bad)).toBe("A prefix starts with a letter, like INV");
    const clash = await save(ADMIN, { prefixes: { quotation: "so" } });
    expect(clash.status).toBe(422);
    expect(message(clash)).toBe("SO is already the prefix of sales order; choose another for quotation");
    const unknown = await save(ADMIN, { prefixes: { nonsense: "NO" } });
    expect(message(unknown)).toBe('There is no numbered document type "nonsense"');
    const negative = await save(ADMIN, { over_delivery_allowance: "-1" });
    expect(message(negative)).toBe("An allowance is a percentage from 0 to 1000");
    // Another workspace's settings are its own.
    expect((await ok(THEM, "document_settings", {})).prefixes).toEqual({});
  });

  it("a prefix change gives the next number with the new prefix, the count going on", async () => {
    const first = await submit("quotation", (await draft(ADMIN)).id);
    const [, year, n] = /^QT-(\d{4})-(\d{5})$/.exec(String(first.number)) ?? [];
    expect(n).toBeDefined();
    const saved = await ok(ADMIN, "document_settings_save", { prefixes: { quotation: " quo " } });
    expect(saved.prefixes).toEqual({ quotation: "QUO" });
    const next = await submit("quotation", (await draft(ADMIN)).id);
    expect(next.number).toBe(`QUO-${year}-${String(Number(n) + 1).padStart(5, "0")}`);
    // Back to the default: the override is dropped.
    const back = await ok(ADMIN, "document_settings_save", { prefixes: { quotation: null } });
    expect(back.prefixes).toEqual({});
    expect((await submit("quotation", (await draft(ADMIN)).id)).number).toMatch(/^QT-/);
  });

  it("an over-delivery allowance of 10% lets 11 of 10 pass and refuses 12, with the message", async () => {
    const so = await order("10");
    const twelve = await deliveryDraft(so, "10");
    const before = await act(ADMIN, "delivery_order", twelve.id, "submit");
    expect(before.status).toBe(200); // 10 of 10, no allowance needed
    const so2 = await order("10");
    const refusedConvert = await rpc(ADMIN, "document_convert", {
      type: "sales_order",
      id: so2.id,
      to: "delivery_order",
      header: { location_id: tuas },
      lines: [{ line_id: so2.lines[0].id, qty: "11" }],
    });
    expect(refusedConvert.status).toBe(409);
    expect(message(refusedConvert)).toBe("Only 10 are left to deliver on line 1, not 11");
    expect((await ok(ADMIN, "document_settings_save", { over_delivery_allowance: "10" })).over_delivery_allowance).toBe(
      "10",
    );
    const eleven = await deliveryDraft(so2, "11");
    expect((await act(ADMIN, "delivery_order", eleven.id, "submit")).status).toBe(200);
    const so3 = await order("10");
    const over = await deliveryDraft(so3, "11");
    await ok(ADMIN, "document_save", {
      type: "delivery_order",
      id: over.id,
      header: { company_id: over.company_id, location_id: tuas },
      lines: [
        { product_id: items[0].id, qty: "12", unit_price: over.lines[0].unit_price, source_line_id: so3.lines[0].id },
      ],
    });
    const twelveRefused = await act(ADMIN, "delivery_order", over.id, "submit");
    expect(twelveRefused.status).toBe(409);
    expect(message(twelveRefused)).toBe("Only 11 are left to deliver on line 1, with the 10% allowance, not 12");
    await ok(ADMIN, "document_settings_save", { over_delivery_allowance: "0" });
  });

  it("an over-billing allowance lets an invoice bill past the order by that much", async () => {
    const so = await order("10");
    const inv = await ok(ADMIN, "document_convert", {
      type: "sales_order",
      id: so.id,
      to: "invoice",
      lines: [{ line_id: so.lines[0].id, qty: "10" }],
    });
    await ok(ADMIN, "document_save", {
      type: "invoice",
      id: inv.id,
      header: { company_id: inv.company_id },
      lines: [
        { product_id: items[0].id, qty: "11", unit_price: inv.lines[0].unit_price, source_line_id: so.lines[0].id },
      ],
    });
    const refused = await act(ADMIN, "invoice", inv.id, "submit");
    expect(message(refused)).toBe("Only 10 are left to bill on line 1, not 11");
    await ok(ADMIN, "document_settings_save", { over_billing_allowance: "10" });
    expect((await act(ADMIN, "invoice", inv.id, "submit")).status).toBe(200);
    await ok(ADMIN, "document_settings_save", { over_billing_allowance: "0" });
  });

  it("negative stock refused by default; allowed, a delivery may take stock below zero", async () => {
    const so = await order("3", items[1]);
    const d = await deliveryDraft(so, "3", ubi);
    const refused = await act(ADMIN, "delivery_order", d.id, "submit");
    expect(refused.status).toBe(409);
    expect(message(refused)).toMatch(/^Not enough .+ at .+ to deliver: 0 on hand, 3 needed$/);
    await ok(ADMIN, "document_settings_save", { allow_negative_stock: true });
    expect((await act(ADMIN, "delivery_order", d.id, "submit")).status).toBe(200);
    const [row] = await q<{ n: string }>(sql`select sum(qty)::text as n from stock_move
      where workspace_id = ${own.ws}::uuid and product_id = ${items[1].id} and location_id = ${ubi}`);
    expect(Number(row.n)).toBe(-3);
    await ok(ADMIN, "document_settings_save", { allow_negative_stock: false });
  });
});
