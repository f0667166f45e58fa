import { describe, expect, it } from "vitest";
import { formatCents } from "./format.ts";

describe("formatCents", () => {
  it("always shows two decimals, up to maxDigits", () => {
    expect(formatCents("705.3")).toBe((705.3).toLocaleString(undefined, { minimumFractionDigits: 2 }));
    expect(formatCents("705.3")).toMatch(/705.30$/);
    expect(formatCents("9.9000", 4)).toMatch(/9.90$/);
    expect(formatCents("1.2345", 4)).toMatch(/1.2345$/);
    expect(formatCents("")).toBe("");
    expect(formatCents("abc")).toBe("abc");
  });
});

describe("the display locale (issue 21 §1)", () => {
  it("reads en-SG by default — day first, never the browser's month-first — and follows the workspace", async () => {
    const { formatDate, formatSpelledDate, formatAmount, formatNumber, setDisplayLocale } = await import("./format.ts");
    expect(formatDate("2025-12-31")).toBe("31/12/2025");
    expect(formatSpelledDate("2025-12-31")).toBe("31 Dec 2025");
    expect(formatAmount("1234.5", "SGD")).toBe("SGD 1,234.50");
    expect(formatNumber(1234567)).toBe("1,234,567");
    setDisplayLocale("en-US");
    try {
      expect(formatDate("2025-12-31")).toBe("12/31/2025");
    } finally {
      setDisplayLocale("en-SG");
    }
    expect(formatDate("2025-12-31")).toBe("31/12/2025");
  });
});
