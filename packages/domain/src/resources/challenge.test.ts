import { describe, expect, it } from "vitest";
import { ChallengeSave, challengeState, periodOf } from "./challenge.ts";

describe("a challenge's period", () => {
  it("weeks run Monday to Sunday; months and quarters are calendar ones (leap years too)", () => {
    expect(periodOf("week", "2026-11-23")).toEqual({ start: "2026-11-23", end: "2026-11-29" }); // a Monday
    expect(periodOf("week", "2026-11-29")).toEqual({ start: "2026-11-23", end: "2026-11-29" }); // a Sunday
    expect(periodOf("week", "2026-12-31")).toEqual({ start: "2026-12-28", end: "2027-01-03" });
    expect(periodOf("month", "2028-02-10")).toEqual({ start: "2028-02-01", end: "2028-02-29" });
    expect(periodOf("quarter", "2026-11-23")).toEqual({ start: "2026-10-01", end: "2026-12-31" });
    expect(periodOf("quarter", "2026-01-01")).toEqual({ start: "2026-01-01", end: "2026-03-31" });
  });

  it("an active challenge is upcoming, running or finished by its dates; draft and cancelled stay so", () => {
    const c = { status: "active", start_date: "2026-11-01", end_date: "2026-11-30" };
    expect(challengeState(c, "2026-10-31")).toBe("upcoming");
    expect(challengeState(c, "2026-11-01")).toBe("running");
    expect(challengeState(c, "2026-11-30")).toBe("running");
    expect(challengeState(c, "2026-12-01")).toBe("finished");
    expect(challengeState({ ...c, status: "draft" }, "2026-11-15")).toBe("draft");
    expect(challengeState({ ...c, status: "cancelled" }, "2026-11-15")).toBe("cancelled");
  });
});

describe("the save command's arguments", () => {
  const base = {
    name: "November",
    metric: "invoices_issued_sum",
    period_kind: "month",
    start_date: "2026-11-01",
    end_date: "2026-11-30",
    participants: [{ workspace_role_id: 5 }],
  };
  it("takes targets as decimal strings or numbers, an empty one as none", () => {
    const parsed = ChallengeSave.parse({
      ...base,
      default_target: 2500,
      participants: [{ user_id: null, workspace_role_id: 5, target: "" }],
    });
    expect(parsed.default_target).toBe("2500");
    expect(parsed.participants[0].target).toBeNull();
    expect(parsed.status).toBe("active");
  });
  it("refuses a period ending before it starts, a target of 0 and no participants, each on its field", () => {
    const issues = (v: unknown) => ChallengeSave.safeParse(v).error?.issues.map((i) => [i.path.join("."), i.message]);
    expect(issues({ ...base, end_date: "2026-10-01" })).toEqual([
      ["end_date", "The challenge must end on or after the day it starts"],
    ]);
    expect(issues({ ...base, default_target: "0" })).toEqual([["default_target", "The target must be more than 0"]]);
    expect(issues({ ...base, participants: [] })).toEqual([
      ["participants", "Add at least one participant (a user or a role)"],
    ]);
  });
});
