import { describe, expect, it } from "vitest";
import {
  conversionsFrom,
  DOCUMENT_TYPES,
  drawnFrom,
  leavesSomething,
  statusHex,
  statusLabel,
  transitionLabelOf,
} from "./types.ts";

// The document pages read everything from the domain's declarations; these pin what they read.
describe("the web's document types", () => {
  it("each has its header and line resources", () => {
    for (const t of DOCUMENT_TYPES) {
      expect(t.header.name).toBe(t.type);
      expect(t.lines.name).toBe(`${t.type}_line`);
    }
  });

  it("counts in a document's Flow only what documents made from it draw (finding 5: no Delivered on a delivery order)", () => {
    const columns = (type: string) => [...drawnFrom(type)].sort();
    expect(columns("delivery_order")).toEqual(["qty_billed", "qty_returned"]);
    expect(columns("sales_order")).toEqual(["qty_billed", "qty_delivered", "qty_returned"]);
    expect(columns("purchase_order")).toEqual(["qty_billed", "qty_received", "qty_returned"]);
  });

  it("offers the conversions the source's status allows, never one counted through another document", () => {
    const names = (type: string, status: string) => conversionsFrom(type, status).map((t) => t.type);
    expect(names("quotation", "sent")).toContain("sales_order");
    expect(names("quotation", "draft")).not.toContain("sales_order");
    expect(names("sales_order", "to_deliver_and_bill")).toEqual(expect.arrayContaining(["delivery_order", "invoice"]));
    expect(names("sales_order", "to_deliver_and_bill")).not.toContain("goods_return_note");
    // A completed contract is still claimed against: its final claim and the release of its retention (issue 12).
    expect(names("sales_order", "completed")).toEqual(["progressive_claim"]);
    expect(names("delivery_order", "draft")).toEqual([]);
  });

  it("names statuses and actions as the machine does", () => {
    const invoice = DOCUMENT_TYPES.find((t) => t.type === "invoice");
    if (!invoice) throw new Error("invoice is not registered");
    expect(statusLabel(invoice, "partly_paid")).toBe("Partly paid");
    expect(statusHex(invoice, "overdue")).toBe("#e53935");
    expect(transitionLabelOf(invoice, "submit")).toBe("Submit");
    expect(transitionLabelOf(invoice, "settle")).toBe("Status updated");
  });
});

describe("leavesSomething (issue 21 §1)", () => {
  const invoice = DOCUMENT_TYPES.find((t) => t.type === "invoice");
  it("offers an invoice from a delivery order only while something is left to bill", () => {
    if (!invoice) throw new Error("no invoice type");
    expect(leavesSomething(invoice, "delivery_order", [{ id: 1, qty: "2", qty_billed: "2" }])).toBe(false);
    expect(
      leavesSomething(invoice, "delivery_order", [
        { id: 1, qty: "2", qty_billed: "2" },
        { id: 2, qty: "3", qty_billed: "1" },
      ]),
    ).toBe(true);
    expect(leavesSomething(invoice, "delivery_order", [{ id: 1, qty: "2" }])).toBe(true);
  });
});
