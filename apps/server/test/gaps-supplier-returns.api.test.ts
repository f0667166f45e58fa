import { describe, expect, it } from "vitest";
import {
  ACCOUNTS,
  bill,
  billDraft,
  type Doc,
  expectBalancedBooks,
  ok,
  order,
  posted,
  read,
  receive,
  STORE,
  world,
} from "./purchasing-helpers.ts";

// Issue 11 gap: a return to the supplier spreads its debit over every supplier invoice that billed the receipt line
// (oldest first, each up to what it billed less what earlier returns debited from it), not only the first; and the
// supplier invoice lines carry qty_returned — what each return debited of them, given back when it is cancelled.

const w = world();

const returnFrom = (sdo: Doc, qty: string) =>
  ok(STORE, "document_convert", {
    type: "supplier_delivery_order",
    id: sdo.id,
    to: "goods_return_note",
    lines: [{ line_id: sdo.lines[0].id, qty }],
  });
const submit = (grn: Doc) =>
  ok(STORE, "document_transition", { type: "goods_return_note", id: grn.id, action: "submit" });
const invoiceLine = async (inv: Doc) => (await read(ACCOUNTS, "supplier_invoice", inv.id)).lines[0];
const outstanding = async (inv: Doc) => (await read(ACCOUNTS, "supplier_invoice", inv.id)).outstanding;

describe("a return to the supplier over a receipt billed by two invoices", () => {
  it("debits the first invoice up to what it billed, then the second; cancel gives each back", async () => {
    const po = await order(w, [{ qty: "10", price: "20" }]);
    const sdo = await receive(po);
    // 4 billed on one invoice (87.20 with GST), the other 6 on a second (130.80).
    const first = await bill(await billDraft({ type: "supplier_delivery_order", doc: sdo }, [{ line: 0, qty: "4" }]));
    const second = await bill(await billDraft({ type: "supplier_delivery_order", doc: sdo }));
    expect([first.outstanding, second.outstanding]).toEqual(["87.20", "130.80"]);
    expect((await invoiceLine(first)).qty_returned ?? "0").toMatch(/^0/);

    // 5 come back: 4 debited from the first invoice, 1 from the second.
    const one = await submit(await returnFrom(sdo, "5"));
    expect(one.lines[0].qty_credited).toBe("5.000");
    expect((await invoiceLine(first)).qty_returned).toBe("4.000");
    expect((await invoiceLine(second)).qty_returned).toBe("1.000");
    expect(await outstanding(first)).toBe("0.00");
    expect(await outstanding(second)).toBe("109.00"); // 130.80 less 20.00 + 1.80 GST
    expect(await posted(w, "goods_return_note", one.id)).toEqual({
      "1200": "-100.00",
      "1300": "-9.00",
      "2000": "109.00",
      "2100": "0.00",
    });
    await expectBalancedBooks(w);

    // 3 more: the first invoice has nothing left to debit, the second takes them.
    const two = await submit(await returnFrom(sdo, "3"));
    expect(two.lines[0].qty_credited).toBe("3.000");
    expect((await invoiceLine(first)).qty_returned).toBe("4.000");
    expect((await invoiceLine(second)).qty_returned).toBe("4.000");
    expect(await outstanding(second)).toBe("43.60");
    await expectBalancedBooks(w);

    // Cancel the first return: each invoice gets back exactly what it debited of them (4 and 1); the second
    // return stays on the second invoice.
    await ok(STORE, "document_transition", { type: "goods_return_note", id: one.id, action: "cancel" });
    expect((await invoiceLine(first)).qty_returned).toBe("0.000");
    expect((await invoiceLine(second)).qty_returned).toBe("3.000");
    expect(await outstanding(first)).toBe("87.20");
    expect(await outstanding(second)).toBe("65.40");
    await expectBalancedBooks(w);

    // The room given back is debited again by the next return, oldest invoice first.
    const three = await submit(await returnFrom(sdo, "2"));
    expect(three.lines[0].qty_credited).toBe("2.000");
    expect((await invoiceLine(first)).qty_returned).toBe("2.000");
    expect(await outstanding(first)).toBe("43.60");
    await expectBalancedBooks(w);
  });
});
