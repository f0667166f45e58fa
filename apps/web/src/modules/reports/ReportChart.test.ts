import { describe, expect, it } from "vitest";
import { chartBars } from "./ReportChart.tsx";

describe("the P&L chart (issue 21 §1)", () => {
  it("shows the table's sections: expenses without the cost of sales, which has its own bar", () => {
    const report = {
      columns: [],
      rows: [],
      totals: { income: "1000.00", cogs: "400.00", expenses: "650.00", net_profit: "350.00" },
    };
    const bars = chartBars(
      { kind: "pl" } as Parameters<typeof chartBars>[0],
      report as Parameters<typeof chartBars>[1],
    );
    expect(bars.map((b) => [b.label, b.value])).toEqual([
      ["Income", 1000],
      ["Cost of sales", 400],
      ["Expenses", 250],
      ["Net profit", 350],
    ]);
  });
});
