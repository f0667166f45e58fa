import { describe, expect, it } from "vitest";
import { checkLine, threeWayCheck } from "../documents/three-way.ts";
import { THREE_WAY_REASONS } from "./payables.ts";

// The queue sorts each line's reasons by THREE_WAY_REASONS' patterns: every reason the check writes must fall under
// exactly the one it is, or the queue's counts and filters would miss it.
const reasonsOf = (text: string) => THREE_WAY_REASONS.filter((r) => new RegExp(r.pattern).test(text)).map((r) => r.key);

const TOL = { qty_percent: "0", price_percent: "0", amount: null };
const po = { qty: "10", unit_price: "100", received: "10", billed_before: "0" };

describe("three-way reasons", () => {
  it("no purchase order line", () => {
    expect(reasonsOf(checkLine({ qty: "1", unit_price: "5", po: null }, TOL).join("; "))).toEqual(["no_po_line"]);
  });

  it("invoiced more than received, with and without anything received", () => {
    const more = checkLine({ qty: "12", unit_price: "100", po }, TOL).join("; ");
    expect(reasonsOf(more)).toEqual(["over_received"]);
    const none = checkLine({ qty: "2", unit_price: "100", po: { ...po, received: "0" } }, TOL).join("; ");
    expect(reasonsOf(none)).toEqual(["over_received"]);
  });

  it("price above the order's", () => {
    expect(reasonsOf(checkLine({ qty: "10", unit_price: "108", po }, TOL).join("; "))).toEqual(["price"]);
  });

  it("several reasons on one line, a likely duplicate number among them", () => {
    const r = threeWayCheck([{ qty: "12", unit_price: "108", po }], TOL, {
      number: "SINV-2026-00001",
      supplier_invoice_number: "INV-778",
    });
    expect(reasonsOf(r.exceptions[0] ?? "")).toEqual(["over_received", "price", "duplicate"]);
  });
});
