import { describe, expect, it } from "vitest";
import { lowestTierWith, TIER, TIERS, tierById, userRangeLabel, yearlySavingPercent } from "./tiers.ts";

describe("tiers (spec §9)", () => {
  it("has Lite 10, Pro 11, Premium 12 with the spec's prices", () => {
    expect(TIERS.map((t) => [t.id, t.monthlyPrice, t.yearlyPrice])).toEqual([
      [10, "89", "961.2"],
      [11, "149", "1609.2"],
      [12, "249", "2988"],
    ]);
  });

  it("computes the yearly saving against 12 monthly payments", () => {
    expect(yearlySavingPercent("89", "961.2")).toBe(10);
    expect(yearlySavingPercent("149", "1609.2")).toBe(10);
    expect(yearlySavingPercent("249", "2988")).toBe(0);
    expect(yearlySavingPercent("0", "0")).toBe(0);
    expect(yearlySavingPercent("89.00", "961.20")).toBe(10);
    expect(yearlySavingPercent("100", "1194")).toBe(1); // 0.5% rounds half-up
  });

  it("each tier includes every feature of the one below", () => {
    for (let i = 1; i < TIERS.length; i++) {
      expect(TIERS[i].features).toEqual(expect.arrayContaining(TIERS[i - 1].features));
    }
  });

  it("names the cheapest tier for a feature", () => {
    expect(lowestTierWith("erp").id).toBe(TIER.Lite);
    expect(lowestTierWith("projects").id).toBe(TIER.Pro);
    expect(lowestTierWith("pos").id).toBe(TIER.Premium);
    expect(tierById(99)).toBeUndefined();
  });

  it("labels user ranges", () => {
    expect(userRangeLabel(TIERS[0])).toBe("1 to 15 users");
    expect(userRangeLabel(TIERS[2])).toBe("50 users and above");
  });
});
