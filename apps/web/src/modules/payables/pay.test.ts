import { describe, expect, it } from "vitest";
import { allocatedTotal, defaultAllocations, fill, paymentProblem, toAllocations } from "./pay.ts";

const chosen = [
  { id: 1, number: "SINV-2026-00001", outstanding: "109" },
  { id: 2, number: "SINV-2026-00002", outstanding: "50.5" },
];

describe("the Pay dialog's payment", () => {
  it("pays each chosen invoice what it owes by default", () => {
    const a = defaultAllocations(chosen);
    expect(a).toEqual([
      { id: 1, amount: "109.00" },
      { id: 2, amount: "50.50" },
    ]);
    expect(allocatedTotal(a)).toBe("159.50");
    expect(paymentProblem("159.50", chosen, a)).toBeNull();
  });

  it("allows paying less on an invoice, and more than the invoices (the supplier's credit)", () => {
    const a = [
      { id: 1, amount: "100" },
      { id: 2, amount: "0" },
    ];
    expect(paymentProblem("200", chosen, a)).toBeNull();
    expect(toAllocations(a)).toEqual([{ document_type: "supplier_invoice", document_id: 1, amount: "100.00" }]);
  });

  it("refuses what the server refuses", () => {
    const a = defaultAllocations(chosen);
    expect(paymentProblem("", chosen, a)).toBe("The amount must be more than 0");
    expect(paymentProblem("abc", chosen, a)).toBe("The amount must be a number");
    expect(paymentProblem("10.555", chosen, a)).toBe("The amount 10.555 has more than 2 decimals");
    expect(paymentProblem("100", chosen, a)).toBe("The invoices get 159.50, more than the payment (100.00)");
    expect(paymentProblem("500", chosen, [{ id: 1, amount: "110" }])).toBe(
      "Only 109.00 is outstanding on SINV-2026-00001",
    );
    expect(paymentProblem("500", chosen, [{ id: 1, amount: "-1" }])).toBe(
      "The amount for SINV-2026-00001 cannot be negative",
    );
  });
});

describe("a supplier's credit", () => {
  it("fills the oldest invoices first, never more than the credit", () => {
    expect(fill(chosen, "120")).toEqual([
      { id: 1, amount: "109.00" },
      { id: 2, amount: "11.00" },
    ]);
    expect(fill(chosen, "500")).toEqual([
      { id: 1, amount: "109.00" },
      { id: 2, amount: "50.50" },
    ]);
  });
});
