import { describe, expect, it } from "vitest";
import { DEFAULT_LOCALE, localeFormat, workspaceLocale } from "./locale.ts";
import { formatMoney } from "./money.ts";

describe("workspace locale", () => {
  it("follows the base currency when the workspace has no setting: SGD reads as en-SG", () => {
    expect(workspaceLocale({ baseCurrency: "SGD" })).toBe("en-SG");
    expect(workspaceLocale({ baseCurrency: "usd" })).toBe("en-US");
    expect(workspaceLocale({ baseCurrency: "XYZ" })).toBe(DEFAULT_LOCALE);
    expect(workspaceLocale({})).toBe("en-SG");
  });
  it("prefers the workspace's own setting, ignoring a tag that is not a locale", () => {
    expect(workspaceLocale({ locale: "en-GB", baseCurrency: "SGD" })).toBe("en-GB");
    expect(workspaceLocale({ locale: "not a locale!", baseCurrency: "SGD" })).toBe("en-SG");
  });
});

describe("locale format (en-SG)", () => {
  const f = localeFormat("en-SG");
  it("writes a day dd/mm/yyyy and spelled day-first, never shifting it a day", () => {
    expect(f.date("2025-12-31")).toBe("31/12/2025");
    expect(f.date("2026-01-05")).toBe("05/01/2026");
    expect(f.spelledDate("2025-12-31")).toBe("31 Dec 2025");
    expect(f.spelledDate("1900-01-01")).toBe("1 Jan 1900");
    expect(f.date("")).toBe("");
    expect(f.date(null)).toBe("");
    expect(f.date("soon")).toBe("soon");
  });
  it("writes an instant day-first with its time", () => {
    expect(f.dateTime("2025-12-31T06:05:00Z", "Asia/Singapore")).toMatch(/^31\/12\/2025, 2:05\s?pm$/i);
  });
  it("groups thousands and keeps two decimals on amounts, up to four on a price, without float error", () => {
    expect(f.amount("1234.5")).toBe("1,234.50");
    expect(f.amount("-0.001")).toBe("0.00");
    expect(f.amount("12.3456", 4)).toBe("12.3456");
    expect(f.amount("12345678901234.125")).toBe("12,345,678,901,234.13");
    expect(f.number("1234.5")).toBe("1,234.5");
    expect(f.number("abc")).toBe("abc");
  });
  it("writes money as the app always has: the currency code first, a minus before it", () => {
    expect(f.money("1234.5", "SGD")).toBe("SGD 1,234.50");
    expect(f.money("-5", "SGD")).toBe("-SGD 5.00");
    for (const v of ["0", "1234.5", "-98765.43", "1000000"]) expect(f.money(v, "USD")).toBe(formatMoney(v, "USD"));
  });
});

describe("locale format (others)", () => {
  it("writes month-first for en-US and uses the locale's separators", () => {
    expect(localeFormat("en-US").date("2025-12-31")).toBe("12/31/2025");
    expect(localeFormat("en-US").spelledDate("2025-12-31")).toBe("Dec 31, 2025");
    expect(localeFormat("de-DE").amount("1234.5")).toBe("1.234,50");
  });
});

describe("spelled dates keep three-letter months", () => {
  it("prints September as Sep, as the other months", () => {
    expect(localeFormat("en-SG").spelledDate("2025-09-30")).toBe("30 Sep 2025");
  });
});
