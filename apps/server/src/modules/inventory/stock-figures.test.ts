import { describe, expect, it } from "vitest";
import { reorderQuantity, shortOf } from "./stock-figures.ts";

const figures = (on_hand: string, reserved: string, on_order = "0", min_qty: string | null = null) => ({
  on_hand,
  reserved,
  on_order,
  available: String(Number(on_hand) - Number(reserved)),
  min_qty,
});

describe("shortOf", () => {
  it("is nothing when stock covers the order", () => {
    expect(shortOf("10", figures("50", "10")).toString()).toBe("0");
  });
  it("counts only the other orders' reservations against it", () => {
    // 200 wanted; 90 on hand, 220 reserved of which 200 are this order's: 70 free, 130 short.
    expect(shortOf("200", figures("90", "220")).toString()).toBe("130");
  });
  it("counts what open purchase orders bring", () => {
    expect(shortOf("200", figures("90", "220", "50")).toString()).toBe("80");
  });
  it("wants all of it when the others reserve more than is on hand", () => {
    expect(shortOf("5", figures("10", "30")).toString()).toBe("5");
  });
  it("takes decimals exactly", () => {
    expect(shortOf("1.5", figures("0.3", "1.5", "0.1")).toString()).toBe("1.1");
  });
});

describe("reorderQuantity", () => {
  it("buys the reorder quantity when the gap is smaller", () => {
    expect(reorderQuantity("50", figures("90", "20", "0", "80"), true).toString()).toBe("50");
  });
  it("buys the gap below the minimum when that is more", () => {
    expect(reorderQuantity("50", figures("0", "30", "0", "80"), true).toString()).toBe("110");
  });
  it("buys the reorder quantity at each of several levels", () => {
    expect(reorderQuantity("50", figures("0", "30", "0", "80"), false).toString()).toBe("50");
  });
});
