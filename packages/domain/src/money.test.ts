import { describe, expect, it } from "vitest";
import { formatMoney, roundMoney, TAX_RATE, taxOn } from "./money.ts";
import { formatPrice } from "./tiers.ts";

describe("money (DESIGN §2.3)", () => {
  it("taxes at 9% rounded half-up to cents", () => {
    expect(TAX_RATE).toBe("0.09");
    expect(taxOn("100")).toBe("9.00");
    expect(taxOn("0.50")).toBe("0.05"); // 0.045 → 0.05 (half-up)
    expect(taxOn("10.05")).toBe("0.90"); // 0.9045
    expect(roundMoney("0.125")).toBe("0.13");
    expect(roundMoney("-0.125")).toBe("-0.13");
  });

  it("never drifts like binary floats", () => {
    expect(roundMoney("0.1").length).toBe(4);
    expect(taxOn("0.1")).toBe("0.01");
  });

  it("formats amounts and list prices", () => {
    expect(formatMoney("1234567.5")).toBe("SGD 1,234,567.50");
    expect(formatMoney("-12")).toBe("-SGD 12.00");
  });

  it("shows list prices with two decimals, grouped, from the string (issue 9 §2: S$961.20, not S$961.2)", () => {
    expect(formatPrice("961.2")).toBe("961.20");
    expect(formatPrice("961.20")).toBe("961.20");
    expect(formatPrice("89")).toBe("89.00");
    expect(formatPrice("2988")).toBe("2,988.00");
    expect(formatPrice("2988.00", "S$")).toBe("S$2,988.00");
    expect(formatPrice("1234567.05", "S$")).toBe("S$1,234,567.05");
    expect(formatPrice("0", "S$")).toBe("S$0.00");
    expect(formatPrice("-12.5", "S$")).toBe("-S$12.50");
    expect(formatPrice(" 134.1 ", "S$")).toBe("S$134.10");
  });
});
