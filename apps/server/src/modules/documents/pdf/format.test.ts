import { describe, expect, it } from "vitest";
import { amount, day, heading, inLocale, moneyOf, price, quantity } from "./format.ts";
import { colour, printable } from "./render.ts";

describe("printed figures", () => {
  it("dates read as a clerk writes them", () => {
    expect(day("2026-11-03")).toBe("3 Nov 2026");
    expect(day("2026-01-31T10:00:00Z")).toBe("31 Jan 2026");
    expect(day(null)).toBe("");
    expect(day("not a date")).toBe("");
  });

  it("amounts have two decimals and thousands separators; prices keep their decimals", () => {
    expect(amount("1234567.5")).toBe("1,234,567.50");
    expect(amount("-0.005")).toBe("-0.01");
    expect(amount("-0.004")).toBe("0.00");
    expect(amount(null)).toBe("0.00");
    expect(price("12.5000")).toBe("12.50");
    expect(price("0.1234")).toBe("0.1234");
    expect(price("1500")).toBe("1,500.00");
    expect(quantity("2.000")).toBe("2");
    expect(quantity("2.500")).toBe("2.5");
  });

  it("titles print in Title Case", () => {
    expect(heading("Delivery order")).toBe("Delivery Order");
    expect(heading("Goods return note")).toBe("Goods Return Note");
  });
});

describe("what the standard fonts can print", () => {
  it("keeps Latin-1 and Windows-1252 text and replaces the rest", () => {
    expect(printable("Café – “Müller” € 5")).toBe("Café – “Müller” € 5");
    expect(printable("陈 Trading")).toBe("? Trading");
    expect(printable("a\tb\r\nc")).toBe("a b\nc");
  });

  it("takes a workspace colour only when it is a hex colour", () => {
    expect(colour("#36A1CF", "#000000")).toBe("#36A1CF");
    expect(colour(" #abc ", "#000000")).toBe("#abc");
    expect(colour("red; drop", "#000000")).toBe("#000000");
    expect(colour(null, "#134b63")).toBe("#134b63");
  });
});

describe("the workspace's locale (issue 21 §1)", () => {
  it("prints en-SG outside a scope and the scope's locale inside one, across awaits", async () => {
    expect(day("2025-12-31")).toBe("31 Dec 2025");
    expect(amount("1234.5")).toBe("1,234.50");
    const inside = await inLocale("en-US", async () => {
      await new Promise((r) => setTimeout(r, 1));
      return [day("2025-12-31"), moneyOf("-1234.5", "USD"), price("0.1234")];
    });
    expect(inside).toEqual(["Dec 31, 2025", "-USD 1,234.50", "0.1234"]);
    expect(inLocale("de-DE", () => amount("1234.5"))).toBe("1.234,50");
    expect(day("2025-12-31")).toBe("31 Dec 2025");
  });
});
