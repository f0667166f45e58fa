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
