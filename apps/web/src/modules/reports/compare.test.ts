import type { ReportResult } from "@workmetrics/domain/reports";
import { describe, expect, it } from "vitest";
import { change, reportCsv, shown } from "./compare.ts";

const now: ReportResult = {
  columns: [
    { key: "company", label: "Customer", kind: "text" },
    { key: "net", label: "Net", kind: "money" },
  ],
  rows: [
    { company_id: 1, company: "Alpha", net: "150.00" },
    { company_id: 2, company: "Beta", net: "20.50" },
  ],
  totals: { net: "170.50" },
  key: "company_id",
  drill: [{ document: { type: "invoice", id: 9 } }, null],
};

const before: ReportResult = {
  ...now,
  rows: [
    { company_id: 2, company: "Beta", net: "40.00" },
    { company_id: 3, company: "Gamma", net: "5.00" },
  ],
  totals: { net: "45.00" },
  drill: [],
};

describe("comparing with the previous period", () => {
  it("changes are exact decimals", () => {
    expect(change("0.30", "0.10")).toBe("0.20");
    expect(change("-1.05", "2")).toBe("-3.05");
    expect(change(null, "12345678901234.99")).toBe("-12345678901234.99");
  });

  it("matches rows by key, keeps rows only the previous period has, and totals each column", () => {
    const s = shown(now, before, "Previous");
    expect(s.columns.map((c) => c.key)).toEqual(["company", "net", "net__previous", "net__change"]);
    expect(s.rows).toEqual([
      { company_id: 1, company: "Alpha", net: "150.00", net__previous: null, net__change: "150.00" },
      { company_id: 2, company: "Beta", net: "20.50", net__previous: "40.00", net__change: "-19.50" },
      { company_id: 3, company: "Gamma", net: null, net__previous: "5.00", net__change: "-5.00" },
    ]);
    expect(s.drill).toEqual([{ document: { type: "invoice", id: 9 } }, null, null]);
    expect(s.totals).toEqual({ net: "170.50", net__previous: "45.00", net__change: "125.50" });
  });

  it("without a key, rows are matched by position", () => {
    const s = shown({ ...now, key: undefined }, { ...before, key: undefined });
    expect(s.rows.map((r) => r.net__previous)).toEqual(["40.00", "5.00"]);
  });

  it("the CSV is the table with its totals", () => {
    expect(reportCsv(shown(now)).trim().split(/\r?\n/)).toEqual([
      "Customer,Net",
      "Alpha,150.00",
      "Beta,20.50",
      "Total,170.50",
    ]);
  });
});
