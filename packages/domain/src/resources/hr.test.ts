import { describe, expect, it } from "vitest";
import { formatDays, leaveDays } from "./hr.ts";

// Issue 21 §4: a leave request's days are its working days (Monday to Friday) less the public holidays.
describe("leaveDays", () => {
  const none = new Set<string>();
  it("counts Monday to Friday and skips the weekend", () => {
    expect(leaveDays("2026-11-23", "2026-11-27", none)).toBe(5); // Monday to Friday
    expect(leaveDays("2026-11-27", "2026-11-30", none)).toBe(2); // Friday to Monday
    expect(leaveDays("2026-11-28", "2026-11-29", none)).toBe(0); // a weekend
  });
  it("skips public holidays, and the observed Monday of a Sunday one", () => {
    const sg = new Set(["2026-08-09", "2026-08-10"]); // National Day on a Sunday, observed on Monday
    expect(leaveDays("2026-08-07", "2026-08-11", sg)).toBe(2); // Friday and Tuesday
    expect(leaveDays("2026-12-24", "2026-12-25", new Set(["2026-12-25"]))).toBe(1);
  });
  it("a half day is half a working day, none on a holiday", () => {
    expect(leaveDays("2026-11-26", "2026-11-26", none, true)).toBe(0.5);
    expect(leaveDays("2026-12-25", "2026-12-25", new Set(["2026-12-25"]), true)).toBe(0);
    expect(formatDays(0.5)).toBe("0.5");
    expect(formatDays(3)).toBe("3");
  });
});
