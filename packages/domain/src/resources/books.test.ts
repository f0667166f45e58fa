import { describe, expect, it } from "vitest";
import { financialYear, spellDate } from "./books.ts";

describe("the books' dates", () => {
  it("spells a day as the refusals name it", () => {
    expect(spellDate("2026-03-31")).toBe("31 Mar 2026");
    expect(spellDate("2024-01-01")).toBe("1 Jan 2024");
  });

  it("finds the financial year holding a day, for any first month", () => {
    expect(financialYear("2026-03-31")).toEqual({ start: "2026-01-01", end: "2026-12-31" });
    expect(financialYear("2026-03-31", 4)).toEqual({ start: "2025-04-01", end: "2026-03-31" });
    expect(financialYear("2026-04-01", 4)).toEqual({ start: "2026-04-01", end: "2027-03-31" });
    expect(financialYear("2024-02-29", 3)).toEqual({ start: "2023-03-01", end: "2024-02-29" });
  });
});
