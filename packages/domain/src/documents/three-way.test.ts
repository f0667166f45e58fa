import { describe, expect, it } from "vitest";
import { type MatchLine, type MatchTolerances, releasedToPay, supplierNumberKey, threeWayCheck } from "./three-way.ts";

type Over = { qty?: string; unit_price?: string; po?: Partial<NonNullable<MatchLine["po"]>> | null };

const line = (over: Over = {}): MatchLine => ({
  qty: over.qty ?? "10",
  unit_price: over.unit_price ?? "5",
  po: over.po === null ? null : { qty: "10", unit_price: "5", received: "10", billed_before: "0", ...(over.po ?? {}) },
});

const none: MatchTolerances = { qty_percent: "0", price_percent: "0", amount: null };
const check = (l: MatchLine, t = none) => threeWayCheck([l], t).exceptions[0];

describe("threeWayCheck", () => {
  it("matches a line invoiced as ordered and received at the order's price", () => {
    expect(threeWayCheck([line(), line({ qty: "4", po: { received: "4" } })], none)).toEqual({
      status: "matched",
      exceptions: [null, null],
    });
  });

  it("flags a line with no purchase order line", () => {
    expect(threeWayCheck([line(), line({ po: null })], none)).toEqual({
      status: "exception",
      exceptions: [null, "No purchase order line"],
    });
  });

  it("compares what is invoiced on the order line, earlier invoices included, with what is received", () => {
    expect(check(line({ qty: "4", po: { received: "8", billed_before: "4" } }))).toBeNull();
    expect(check(line({ qty: "5", po: { received: "8", billed_before: "4" } }))).toBe("Invoiced 9 but received 8");
    expect(check(line({ qty: "2", po: { received: "0" } }))).toBe("Invoiced 2 but nothing is received yet");
  });

  it("allows invoicing beyond receipt up to the quantity tolerance, not a unit more", () => {
    const t = { ...none, qty_percent: "10" };
    expect(check(line({ qty: "11", po: { qty: "20", received: "10" } }), t)).toBeNull(); // at the limit
    expect(check(line({ qty: "11.001", po: { qty: "20", received: "10" } }), t)).toBe(
      "Invoiced 11.001 but received 10 (tolerance 10%)",
    );
  });

  it("allows a price above the order's up to the price tolerance", () => {
    const t = { ...none, price_percent: "5" };
    expect(check(line({ unit_price: "5.25" }), t)).toBeNull(); // 5% over: at the limit
    expect(check(line({ unit_price: "5.2501" }), t)).toBe("Price 5.25 is above the order's 5.00 (tolerance 5%)");
    expect(check(line({ unit_price: "4.50" }), none)).toBeNull(); // cheaper is never an exception
    expect(check(line({ unit_price: "5.01" }), none)).toBe("Price 5.01 is above the order's 5.00");
  });

  it("caps either difference at the absolute amount, the stricter limit winning", () => {
    const t = { qty_percent: "50", price_percent: "10", amount: "2.50" };
    // 10 × 0.25 = 2.50 over: at the cap and within 10%
    expect(check(line({ unit_price: "5.25" }), t)).toBeNull();
    // 10 × 0.26 = 2.60: within 10% but past the cap
    expect(check(line({ unit_price: "5.26" }), t)).toMatch(/^Price 5.26 is above/);
    // half a unit over at 5: 2.50, at the cap; a little more is past it
    expect(check(line({ qty: "10.5", po: { qty: "20" } }), t)).toBeNull();
    expect(check(line({ qty: "10.501", po: { qty: "20" } }), t)).toMatch(/^Invoiced 10.501 but received 10/);
  });

  it("gives every reason a line has, and a likely duplicate on every line", () => {
    const r = threeWayCheck([line({ qty: "12", unit_price: "6", po: { qty: "12" } }), line()], none, {
      number: "SINV-2026-00003",
      supplier_invoice_number: "INV-778",
    });
    expect(r.status).toBe("exception");
    expect(r.exceptions).toEqual([
      "Invoiced 12 but received 10; Price 6.00 is above the order's 5.00; Supplier's number looks like INV-778 on SINV-2026-00003",
      "Supplier's number looks like INV-778 on SINV-2026-00003",
    ]);
  });
});

describe("supplierNumberKey and releasedToPay", () => {
  it("reads a number without spaces, dashes or case", () => {
    expect(supplierNumberKey(" inv 778/a ")).toBe("INV778A");
    expect(supplierNumberKey("INV-778-A")).toBe("INV778A");
  });

  it("pays matched and released invoices only", () => {
    expect([null, "matched", "exception", "released"].map(releasedToPay)).toEqual([false, true, false, true]);
  });
});
