import { TIERS } from "@workmetrics/domain";
import { describe, expect, it } from "vitest";
import { listedReports } from "./catalog.ts";

const tier = (slug: string) => TIERS.find((t) => t.slug === slug)?.features ?? [];
const FINANCE = ["accounts_receivable.read", "accounts_payable.read", "financial_reports.read", "invoice.read"];

describe("the reports the page lists", () => {
  it("a Lite member sees the ledgers open and the financial and analytics reports locked; no permission, no row", () => {
    const lite = listedReports({
      kind: "member",
      permissions: FINANCE,
      features: TIERS.find((t) => t.slug === "lite")?.features ?? [],
    });
    const state = Object.fromEntries(lite.map((l) => [l.entry.name, l.decision.allowed ? "open" : "locked"]));
    expect(state).toMatchObject({
      ar_ageing: "open",
      supplier_statement: "open",
      profit_and_loss: "locked",
      gst_f5: "locked",
      sales_by_month: "locked",
    });
    expect(state).not.toHaveProperty("journal_drill"); // reached by drilling only
    // On a tier that has analytics, a report the role may not read is not listed at all.
    const pro = listedReports({ kind: "member", permissions: FINANCE, features: tier("pro") });
    expect(pro.map((l) => l.entry.name)).toContain("sales_by_month");
    expect(pro.map((l) => l.entry.name)).not.toContain("stock_movement"); // no product.read
  });
});
