import { describe, expect, it } from "vitest";
import { belowCost, priceDraft } from "./pricing.ts";

// The server's side of the totals: what document_save writes on the header and lines, and the margin check.

describe("priceDraft", () => {
  it("writes the totals of computeTotals, whatever totals the input carried", () => {
    const priced = priceDraft({ company_id: 1, total: "1.00", discount_amount: "10" }, [
      { qty: "3", unit_price: "33.335", tax_code: "SR", line_total: "0.01" },
      { qty: "1", unit_price: "10", tax_code: "ZR" },
    ]);
    expect(priced.lines.map((l) => [l.line_total, l.net_amount])).toEqual([
      ["100.01", "90.92"],
      ["10.00", "9.09"],
    ]);
    expect(priced.header).toMatchObject({
      subtotal: "110.01",
      discount_amount: "10.00",
      net_total: "100.01",
      tax_total: "8.18",
      total: "108.19",
      base_total: "108.19",
      rate: "1",
    });
  });

  it("refuses a percent and an amount together, and bad figures as the clerk's message", () => {
    expect(() => priceDraft({ discount_percent: "5", discount_amount: "1" }, [])).toThrow(
      "Give the discount as a percent or as an amount, not both",
    );
    expect(() => priceDraft({ discount_amount: "50" }, [{ qty: "1", unit_price: "10", tax_code: "SR" }])).toThrow(
      "The discount cannot be more than the subtotal of 10.00",
    );
  });
});

describe("belowCost (DESIGN: minimum margin rate 0)", () => {
  it("finds the first line whose price after its discount is under its cost", () => {
    const lines = [
      { unit_price: "10", unit_cost: "8", discount_percent: "20" },
      { unit_price: "10", unit_cost: "8", discount_percent: "25" },
      { unit_price: "1", unit_cost: null },
    ];
    expect(belowCost(lines)).toEqual({ n: 2, cost: "8.00" });
    expect(belowCost([lines[0], lines[2], { unit_price: "0", unit_cost: "0" }])).toBeNull();
  });
});
