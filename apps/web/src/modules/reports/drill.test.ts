import { describe, expect, it } from "vitest";
import { drillTarget } from "./drill.ts";

describe("drill targets", () => {
  it("a report opens at its own address, a document at its page, a payment as its PDF", () => {
    expect(
      drillTarget({ report: "general_ledger", params: { account: "4000", from: "2026-01-01", to: "" } }, "/dashboard"),
    ).toEqual({ kind: "report", to: "/dashboard/reports/general_ledger?account=4000&from=2026-01-01" });
    expect(drillTarget({ document: { type: "invoice", id: 7, number: "INV-2026-00007" } }, "/dashboard")).toEqual({
      kind: "page",
      to: "/dashboard/invoices/7",
    });
    expect(drillTarget({ document: { type: "supplier_payment", id: 3 } }, "/dashboard")).toEqual({
      kind: "pdf",
      href: "/api/documents/supplier_payment/3/pdf",
    });
    expect(drillTarget({ document: { type: "opening", id: 0 } }, "/dashboard")).toBeNull();
    expect(drillTarget(null, "/dashboard")).toBeNull();
  });
});
