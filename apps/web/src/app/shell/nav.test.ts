import { describe, expect, it } from "vitest";
import { moduleAt, pushRecent, type RecentEntry, recordAt, storageKey } from "./nav.ts";

describe("the shell's navigation helpers", () => {
  it("finds the module an address belongs to, the longest path winning", () => {
    expect(moduleAt("/dashboard", "/dashboard")?.title).toBe("Dashboard");
    expect(moduleAt("/dashboard/invoices/12/edit", "/dashboard")?.section).toBe("Sales");
    expect(moduleAt("/dashboard/team-challenge/calendar", "/dashboard")?.path).toBe("team-challenge/calendar");
    expect(moduleAt("/_workspaces/demo/dashboard/purchase-orders", "/_workspaces/demo/dashboard")?.section).toBe(
      "Purchasing",
    );
    expect(moduleAt("/pricing", "/dashboard")).toBeUndefined();
  });

  it("records a record's page, not a list, a new form or an edit form", () => {
    expect(recordAt("/dashboard/invoices/12", "/dashboard")).toEqual({
      path: "invoices/12",
      resource: "invoice",
      id: "12",
    });
    expect(recordAt("/dashboard/companies/3", "/dashboard")?.resource).toBe("company");
    expect(recordAt("/dashboard/invoices", "/dashboard")).toBeNull();
    expect(recordAt("/dashboard/invoices/new", "/dashboard")).toBeNull();
    expect(recordAt("/dashboard/invoices/12/edit", "/dashboard")).toBeNull();
    expect(recordAt("/dashboard/reports/trial_balance", "/dashboard")).toBeNull();
  });

  it("keeps the newest first, each record once, at most ten", () => {
    const entry = (id: number): RecentEntry => ({
      path: `invoices/${id}`,
      resource: "invoice",
      id: String(id),
      at: id,
    });
    let list: RecentEntry[] = [];
    for (let i = 1; i <= 12; i++) list = pushRecent(list, entry(i));
    expect(list.map((e) => e.id)).toEqual(["12", "11", "10", "9", "8", "7", "6", "5", "4", "3"]);
    list = pushRecent(list, entry(7));
    expect(list.map((e) => e.id).slice(0, 3)).toEqual(["7", "12", "11"]);
    expect(list).toHaveLength(10);
  });

  it("keys what it keeps by workspace and user", () => {
    expect(storageKey("recent", "w1", "u1")).not.toBe(storageKey("recent", "w2", "u1"));
    expect(storageKey("recent", "w1", "u1")).not.toBe(storageKey("recent", "w1", "u2"));
  });
});
