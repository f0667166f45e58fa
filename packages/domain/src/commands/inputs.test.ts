import { describe, expect, it } from "vitest";
import { amountArg, dayArg, qtyArg } from "./inputs.ts";

const message = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe("command inputs (issue 21 §2)", () => {
  it("takes days from 1900 to 2099 only, and real ones", () => {
    const day = dayArg("The date");
    expect(day.parse("2026-03-31")).toBe("2026-03-31");
    for (const bad of ["1899-12-31", "2100-01-01", "9999-12-31", "0001-01-01"]) {
      expect(message(day.safeParse(bad)), bad).toBe("The date must be between 1900 and 2099");
    }
    expect(message(day.safeParse("2026-02-30"))).toBe("The date is not a real date");
    expect(message(day.safeParse("31/03/2026"))).toBe("The date must be a date like 2026-03-31");
  });

  it("takes plain decimals that fit the column, as strings", () => {
    const amount = amountArg("The amount");
    expect(amount.parse("12.50")).toBe("12.50");
    expect(amount.parse(12.5)).toBe("12.5");
    expect(amount.parse(1e3)).toBe("1000");
    expect(amount.parse("-3")).toBe("-3");
    for (const bad of ["NaN", "Infinity", "-Infinity", "1e3", "", "12,50", "0x10"]) {
      expect(message(amount.safeParse(bad)), bad).toBe("The amount must be a number like 12.50");
    }
    expect(message(amount.safeParse(Number.NaN))).toBe("The amount must be a number like 12.50");
    expect(message(amount.safeParse(1e20))).toBe("The amount is too large");
    expect(message(amount.safeParse("1234567890123.00"))).toBe("The amount is too large");
    expect(amount.parse("999999999999.99")).toBe("999999999999.99");
    // The cents are the command's to check, in its own words ("The amount 1.005 has more than 2 decimals").
    expect(amount.parse("1.005")).toBe("1.005");
    const qty = qtyArg("The quantity");
    expect(message(qty.safeParse("0.000000001"))).toBe("The quantity can have at most 3 decimals");
    expect(qty.parse("0.125")).toBe("0.125");
    expect(message(qty.safeParse(true))).toBe("The quantity must be a number like 12.50");
  });
});
