import { describe, expect, it } from "vitest";
import { decide } from "./access.ts";
import { DEFAULT_ROLE_PERMISSIONS } from "./permissions.ts";
import { AGEING_BUCKETS, ageingBucket, REPORT_ACCESS } from "./reports.ts";
import { ROLE } from "./roles.ts";
import { TIERS } from "./tiers.ts";

describe("ageing buckets", () => {
  it("puts each day past due in exactly one bucket, boundaries included", () => {
    const cases: Array<[number, string]> = [
      [-5, "current"],
      [0, "current"],
      [1, "days_1_30"],
      [30, "days_1_30"],
      [31, "days_31_60"],
      [60, "days_31_60"],
      [61, "days_61_90"],
      [90, "days_61_90"],
      [91, "days_over_90"],
      [4000, "days_over_90"],
    ];
    for (const [days, bucket] of cases) expect(ageingBucket(days), String(days)).toBe(bucket);
  });

  it("leaves no gap and no overlap between buckets", () => {
    for (let i = 1; i < AGEING_BUCKETS.length; i++) {
      expect(AGEING_BUCKETS[i].min).toBe((AGEING_BUCKETS[i - 1].max as number) + 1);
    }
  });
});

describe("who reads receivables", () => {
  const member = (role: number, tier = "lite") => ({
    kind: "member" as const,
    permissions: DEFAULT_ROLE_PERMISSIONS[role] ?? [],
    features: TIERS.find((t) => t.slug === tier)?.features ?? [],
  });

  it("finance, accounts, owners and sales managers on every tier; not salespeople", () => {
    for (const role of [ROLE.Owner, ROLE.Admin, ROLE.SalesManager, 40, 42]) {
      expect(decide(member(role), REPORT_ACCESS.ar_ageing).allowed, String(role)).toBe(true);
    }
    expect(decide(member(ROLE.Salesperson, "premium"), REPORT_ACCESS.ar_ageing)).toMatchObject({
      allowed: false,
      message: "You do not have permission to read accounts receivable",
    });
    expect(decide(member(ROLE.Driver), REPORT_ACCESS.ar_ageing).allowed).toBe(false);
  });
});
