import { describe, expect, it } from "vitest";
import { applyDiscount, type Discount } from "./discount-pricing.ts";

// Issue 11: which confirmed supplier discount prices a purchase line, and how.

const pct = (formId: number, percent: string, minQty = "1"): Discount => ({
  formId,
  kind: "percent",
  percent,
  price: null,
  minQty,
});
const price = (formId: number, p: string, minQty = "1"): Discount => ({
  formId,
  kind: "price",
  percent: null,
  price: p,
  minQty,
});

describe("applyDiscount", () => {
  it("keeps the supplier's price and names no form when none applies", () => {
    expect(applyDiscount({ qty: "3" }, "10.00", [])).toEqual({
      qty: "3",
      unit_price: "10.00",
      supplier_discount_form_id: null,
    });
  });

  it("a % form keeps the price and sets the discount; a price form sets the price with no discount", () => {
    expect(applyDiscount({ qty: "3" }, "10.00", [pct(7, "12.5")])).toMatchObject({
      unit_price: "10.00",
      discount_percent: "12.5",
      supplier_discount_form_id: 7,
    });
    expect(applyDiscount({ qty: "3" }, "10.00", [price(8, "8.40")])).toMatchObject({
      unit_price: "8.40",
      discount_percent: "0",
      supplier_discount_form_id: 8,
    });
  });

  it("applies from the minimum quantity, at and above it", () => {
    expect(applyDiscount({ qty: "9.999" }, "10", [pct(1, "5", "10")]).supplier_discount_form_id).toBeNull();
    expect(applyDiscount({ qty: "10" }, "10", [pct(1, "5", "10")]).supplier_discount_form_id).toBe(1);
  });

  it("the lowest net price wins; on a tie the first (the latest form) stays", () => {
    const forms = [pct(3, "10"), price(2, "8.99"), pct(1, "10")];
    expect(applyDiscount({ qty: "1" }, "10", forms).supplier_discount_form_id).toBe(2);
    expect(applyDiscount({ qty: "1" }, "10", [pct(3, "10"), pct(1, "10")]).supplier_discount_form_id).toBe(3);
  });

  it("a % form needs a price to take off from (a product with no cost and no last price)", () => {
    expect(applyDiscount({ qty: "1" }, undefined, [pct(1, "10")]).supplier_discount_form_id).toBeNull();
  });
});
