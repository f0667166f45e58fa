import { describe, expect, it } from "vitest";
import { ageingCsv, groupedAmount, receivableLists, statementPeriod } from "./ageing.ts";

describe("ageing CSV", () => {
  it("has the report's labels, one line per customer and a total line of the money columns", () => {
    const csv = ageingCsv({
      columns: [
        { key: "company", label: "Customer", kind: "text" },
        { key: "invoices", label: "Invoices", kind: "integer" },
        { key: "current", label: "Current", kind: "money" },
        { key: "total", label: "Outstanding", kind: "money" },
      ],
      rows: [
        { company: "Acme, Pte Ltd", invoices: 2, current: "10.00", total: "12.50" },
        { company: "Beta", invoices: 1, current: "0.00", total: "3.00" },
      ],
      totals: { current: "10.00", total: "15.50", count: 2 },
    });
    expect(csv.split(/\r?\n/).filter(Boolean)).toEqual([
      "Customer,Invoices,Current,Outstanding",
      '"Acme, Pte Ltd",2,10.00,12.50',
      "Beta,1,0.00,3.00",
      "Total,,10.00,15.50",
    ]);
  });

  it("prints a statement from the first of the month a year back to the as-of date", () => {
    expect(statementPeriod("2026-11-23")).toEqual({ from: "2025-11-01", to: "2026-11-23" });
  });

  it("groups amounts by thousands with two decimals, without floats", () => {
    expect(groupedAmount("1234.5")).toBe("1,234.50");
    expect(groupedAmount("98765432109876.54")).toBe("98,765,432,109,876.54");
    expect(groupedAmount("-20")).toBe("-20.00");
    expect(groupedAmount("0.00")).toBe("0.00");
  });
});

describe("the drill-down's links to the customer's receivables (finding 8)", () => {
  it("one per receivable type the member reads, not invoices alone", () => {
    expect(receivableLists("/d", 7, () => true)).toEqual([
      { label: "All invoices", to: "/d/invoices?customer=7" },
      { label: "All debit notes", to: "/d/debit-notes?customer=7" },
      { label: "All progressive claims", to: "/d/progressive-claims?customer=7" },
    ]);
    expect(receivableLists("/d", 7, (r) => r !== "progressive_claim").map((l) => l.label)).toEqual([
      "All invoices",
      "All debit notes",
    ]);
  });
});
