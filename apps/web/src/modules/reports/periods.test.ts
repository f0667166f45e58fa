import { describe, expect, it } from "vitest";
import { isDay, preset, presetOf, previousDate, previousPeriod, quarterPeriod, recentQuarters } from "./periods.ts";

describe("report periods", () => {
  const today = "2026-05-14";
  it("presets are whole calendar months, quarters and years", () => {
    expect(preset("this_month", today)).toEqual({ from: "2026-05-01", to: "2026-05-31" });
    expect(preset("last_month", today)).toEqual({ from: "2026-04-01", to: "2026-04-30" });
    expect(preset("this_quarter", today)).toEqual({ from: "2026-04-01", to: "2026-06-30" });
    expect(preset("last_quarter", today)).toEqual({ from: "2026-01-01", to: "2026-03-31" });
    expect(preset("this_year", today)).toEqual({ from: "2026-01-01", to: "2026-12-31" });
    expect(preset("last_year", today)).toEqual({ from: "2025-01-01", to: "2025-12-31" });
    expect(preset("last_month", "2026-01-10")).toEqual({ from: "2025-12-01", to: "2025-12-31" });
    expect(preset("last_quarter", "2026-02-10")).toEqual({ from: "2025-10-01", to: "2025-12-31" });
    expect(presetOf({ from: "2026-04-01", to: "2026-06-30" }, today)).toBe("this_quarter");
    expect(presetOf({ from: "2026-04-02", to: "2026-06-30" }, today)).toBeNull();
  });

  it("the previous period is as many months before, or as many days", () => {
    expect(previousPeriod({ from: "2026-03-01", to: "2026-03-31" })).toEqual({ from: "2026-02-01", to: "2026-02-28" });
    expect(previousPeriod({ from: "2026-04-01", to: "2026-06-30" })).toEqual({ from: "2026-01-01", to: "2026-03-31" });
    expect(previousPeriod({ from: "2026-01-01", to: "2026-12-31" })).toEqual({ from: "2025-01-01", to: "2025-12-31" });
    expect(previousPeriod({ from: "2026-03-10", to: "2026-03-19" })).toEqual({ from: "2026-02-28", to: "2026-03-09" });
    expect(previousDate("2028-02-29")).toBe("2027-02-28");
  });

  it("quarters and dates", () => {
    expect(quarterPeriod({ year: 2026, q: 4 })).toEqual({ from: "2026-10-01", to: "2026-12-31" });
    expect(recentQuarters("2026-02-01", 3)).toEqual([
      { year: 2026, q: 1 },
      { year: 2025, q: 4 },
      { year: 2025, q: 3 },
    ]);
    expect(isDay("2026-02-29")).toBe(false);
    expect(isDay("2028-02-29")).toBe(true);
    expect(isDay("yesterday")).toBe(false);
  });
});
