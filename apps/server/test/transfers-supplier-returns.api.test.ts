import { describe, expect, it } from "vitest";
import {
  ACCOUNTS,
  act,
  BUYER,
  bill,
  billDraft,
  type Doc,
  expectBalancedBooks,
  ok,
  onHand,
  order,
  posted,
  read,
  receive,
  rpc,
  STORE,
  world,
} from "./purchasing-helpers.ts";

// Issue 11 "Goods return notes to suppliers": a goods return note made from a submitted supplier delivery order goes
// to the supplier — stock out at the receipt's cost (Dr 2100 / Cr 1200), qty_returned on the receipt's and the
// order's lines, over-return refused; what the supplier already invoiced is debited against the invoice (its
// outstanding falls; Dr 2000 / Cr 2100 / Cr 1300); cancel gives it all back; the books balance at every step.
// (Named transfers-* for the engineer who owns it; it is about returns to suppliers.)

const w = world();

const message = (res: { body: unknown }) => (res.body as { message: string }).message;
const returnFrom = (sdo: Doc, qty?: string) =>
  ok(STORE, "document_convert", {
    type: "supplier_delivery_order",
    id: sdo.id,
    to: "goods_return_note",
    ...(qty ? { lines: [{ line_id: sdo.lines[0].id, qty }] } : {}),
  });
const submit = (grn: Doc) =>
  ok(STORE, "document_transition", { type: "goods_return_note", id: grn.id, action: "submit" });

describe("goods return notes to suppliers", () => {
  it("return invoiced goods: stock out at the receipt's cost and the invoice debited", async () => {
    const p = w.items[0];
    const po = await order(w, [{ qty: "10", price: "20" }]);
    const sdo = await receive(po);
    const inv = await bill(await billDraft({ type: "supplier_delivery_order", doc: sdo }));
    expect(inv.outstanding).toBe("218.00");
    const start = await onHand(w, p.id);

    const draft = await returnFrom(sdo, "4");
    expect(draft).toMatchObject({
      status: "draft",
      direction: "supplier",
      company_id: w.supplier,
      source_type: "supplier_delivery_order",
      source_id: sdo.id,
    });
    const grn = await submit(draft);
    expect(grn).toMatchObject({ status: "returned", number: expect.stringMatching(/^GRN-\d{4}-\d{5}$/) });
    expect(grn.lines[0].qty_credited).toBe("4.000"); // the part debited against the invoice
    expect(await onHand(w, p.id)).toBe(String(Number(start) - 4));
    expect((await read(STORE, "supplier_delivery_order", sdo.id)).lines[0].qty_returned).toBe("4.000");
    expect((await read(BUYER, "purchase_order", po.id)).lines[0].qty_returned).toBe("4.000");
    expect(await posted(w, "goods_return_note", grn.id)).toEqual({
      "1200": "-80.00",
      "1300": "-7.20",
      "2000": "87.20",
      "2100": "0.00", // +80.00 taken back from the receipt, −80.00 cleared against the invoice
    });
    expect((await read(ACCOUNTS, "supplier_invoice", inv.id)).outstanding).toBe("130.80");
    await expectBalancedBooks(w);

    // Only 6 are left to return; the receipt cannot be cancelled while the return stands.
    const over = await rpc(STORE, "document_convert", {
      type: "supplier_delivery_order",
      id: sdo.id,
      to: "goods_return_note",
      lines: [{ line_id: sdo.lines[0].id, qty: "7" }],
    });
    expect(over.status).toBe(409);
    expect(message(over)).toBe("Only 6 of 10 are left to return on line 1");
    const blocked = await act(STORE, "supplier_delivery_order", sdo.id, "cancel");
    expect(blocked.status).toBe(409);

    // Cancel: stock, the receipt's and order's quantities, the invoice's outstanding all come back.
    await ok(STORE, "document_transition", { type: "goods_return_note", id: grn.id, action: "cancel" });
    expect(await onHand(w, p.id)).toBe(start);
    expect((await read(STORE, "supplier_delivery_order", sdo.id)).lines[0].qty_returned).toBe("0.000");
    expect((await read(BUYER, "purchase_order", po.id)).lines[0].qty_returned).toBe("0.000");
    expect((await read(ACCOUNTS, "supplier_invoice", inv.id)).outstanding).toBe("218.00");
    await expectBalancedBooks(w);
  });

  it("return goods not yet invoiced: only the receipt's 2100 is taken back; customer returns are untouched", async () => {
    const p = w.items[1];
    const po = await order(w, [{ item: 1, qty: "5", price: "12.50" }]);
    const sdo = await receive(po);
    const start = await onHand(w, p.id);
    const grn = await submit(await returnFrom(sdo, "2"));
    expect(grn.status).toBe("returned");
    expect(grn.lines[0].qty_credited).toBe("0.000");
    expect(await onHand(w, p.id)).toBe(String(Number(start) - 2));
    expect(await posted(w, "goods_return_note", grn.id)).toEqual({ "1200": "-25.00", "2100": "25.00" });
    // Invoiced later, the rest is billed: 3 left to bill on the receipt.
    const inv = await bill(await billDraft({ type: "supplier_delivery_order", doc: sdo }));
    expect(inv.lines[0].qty).toBe("5.000");
    await expectBalancedBooks(w);
    // Once invoiced, a further return is debited against the invoice.
    const later = await submit(await returnFrom(sdo, "1"));
    expect(later.lines[0].qty_credited).toBe("1.000");
    expect((await read(ACCOUNTS, "supplier_invoice", inv.id)).outstanding).toBe("54.50"); // 68.13 less 12.50 + 1.13 GST
    await expectBalancedBooks(w);
  });
});
