import { describe, expect, it } from "vitest";
import { CommissionRuleInput, collectedShare, commissionFor, isWholePeriod, periodOf, ruleFor } from "./commission.ts";

const tiered = {
  rate_percent: "3",
  target: "50000",
  tiers: [
    { from_percent: "0", rate_percent: "3" },
    { from_percent: "80", rate_percent: "5" },
    { from_percent: "100", rate_percent: "7" },
  ],
};

describe("commissionFor", () => {
  it("applies a flat rate to the base, to the cent, half up", () => {
    expect(commissionFor({ rate_percent: "2.5", target: null, tiers: [] }, "1234.50")).toEqual({
      base: "1234.50",
      target: null,
      achievement_percent: null,
      rate_percent: "2.50",
      commission: "30.86",
    });
  });

  it.each([
    ["39999.99", "79.99", "3.00", "1200.00"], // 1199.9997
    ["40000.00", "80.00", "5.00", "2000.00"],
    ["49999.99", "99.99", "5.00", "2500.00"], // 2499.9995 half up
    ["50000.00", "100.00", "7.00", "3500.00"],
    ["62000.00", "124.00", "7.00", "4340.00"],
  ])("base %s: achievement %s, rate %s on the whole base, commission %s", (base, ach, rate, commission) => {
    const f = commissionFor(tiered, base);
    expect([f.achievement_percent, f.rate_percent, f.commission]).toEqual([ach, rate, commission]);
  });

  it("a negative base (credit notes beyond sales) earns the first tier's rate back", () => {
    expect(commissionFor(tiered, "-1000").commission).toBe("-30.00");
  });
});

describe("ruleFor", () => {
  const rules = [
    { id: 1, user_id: null, role_id: 3 },
    { id: 2, user_id: "u-1", role_id: null },
  ];
  it("prefers the user's own rule to their role's, else the role's, else none", () => {
    expect(ruleFor(rules, { user_id: "u-1", role_id: 3 })?.id).toBe(2);
    expect(ruleFor(rules, { user_id: "u-2", role_id: 3 })?.id).toBe(1);
    expect(ruleFor(rules, { user_id: "u-2", role_id: 2 })).toBeNull();
  });
});

describe("collectedShare", () => {
  it("is the collected part of the invoice's commissionable net", () => {
    // Invoice 1,090 (1,000 net + GST), 600 of it commissionable; 545 collected = half.
    expect(collectedShare("545.00", "1090.00", "600.00")).toBe("300.00");
    expect(collectedShare("10", "0", "0")).toBe("0.00");
  });
});

describe("periods", () => {
  it("finds the month and the quarter of a date, leap years included", () => {
    expect(periodOf("monthly", "2024-02-10")).toEqual({ from: "2024-02-01", to: "2024-02-29" });
    expect(periodOf("quarterly", "2026-11-23")).toEqual({ from: "2026-10-01", to: "2026-12-31" });
    expect(isWholePeriod("monthly", "2026-03-01", "2026-03-31")).toBe(true);
    expect(isWholePeriod("quarterly", "2026-03-01", "2026-03-31")).toBe(false);
  });
});

describe("CommissionRuleInput", () => {
  const base = {
    user_id: "6f1c3c7e-3a38-4f0b-9d5e-1d4a2b9c0e11",
    basis: "invoiced",
    rate_percent: "3",
    period: "monthly",
  };
  const first = (v: unknown) => {
    const r = CommissionRuleInput.safeParse(v);
    return r.success ? null : r.error.issues[0].message;
  };
  it("takes a flat rule and a tiered one", () => {
    expect(first(base)).toBeNull();
    expect(first({ ...base, ...tiered })).toBeNull();
  });
  it("refuses with words a clerk understands", () => {
    expect(first({ ...base, user_id: null })).toBe("Choose either a salesperson or a role");
    expect(first({ ...base, role_id: 3 })).toBe("Choose either a salesperson or a role");
    expect(first({ ...base, rate_percent: "101" })).toBe("The rate must be at most 100%");
    expect(first({ ...base, rate_percent: "abc" })).toBe(
      "The rate must be a number with at most 2 decimals, such as 5 or 2.5",
    );
    expect(first({ ...base, tiers: tiered.tiers })).toBe("Tiers need a target per period");
    expect(first({ ...base, target: "100", tiers: [{ from_percent: "10", rate_percent: "1" }] })).toBe(
      "The first tier starts at 0%",
    );
    expect(
      first({
        ...base,
        target: "100",
        tiers: [
          { from_percent: "0", rate_percent: "1" },
          { from_percent: "0", rate_percent: "2" },
        ],
      }),
    ).toBe("Each tier starts above the one before it");
  });
});
