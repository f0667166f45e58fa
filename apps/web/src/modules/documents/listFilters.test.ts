import { describe, expect, it } from "vitest";
import { docFilters, numberOrCustomer, readDocFilters, toQueryPairs, writeDocFilters } from "./listFilters.ts";

describe("document list filters", () => {
  it("reads status, customer and dates from the URL, ignoring what is malformed", () => {
    const f = readDocFilters(new URLSearchParams("status=unpaid,overdue,Bad!&customer=12&from=2026-01-01&to=junk"));
    expect(f).toEqual({ status: ["unpaid", "overdue"], customer: 12, from: "2026-01-01", to: null });
  });

  it("round-trips through the URL and starts again at page 1", () => {
    const f = { status: ["sent"], customer: 3, from: "2026-02-01", to: "2026-02-28" };
    const p = writeDocFilters(new URLSearchParams("page=4&q=x"), f);
    expect(p.get("page")).toBeNull();
    expect(p.get("q")).toBe("x");
    expect(readDocFilters(p)).toEqual(f);
  });

  it("becomes PostgREST filters", () => {
    expect(docFilters({ status: ["unpaid", "overdue"], customer: 7, from: "2026-01-01", to: "2026-01-31" })).toEqual([
      { column: "status", op: "in", value: "(unpaid,overdue)" },
      { column: "company_id", op: "eq", value: "7" },
      { column: "doc_date", op: "gte", value: "2026-01-01" },
      { column: "doc_date", op: "lte", value: "2026-01-31" },
    ]);
    expect(docFilters({ status: ["paid"], customer: null, from: null, to: null })).toEqual([
      { column: "status", op: "eq", value: "paid" },
    ]);
  });

  it("searches the number, or the customers whose name matched", () => {
    expect(numberOrCustomer("  ", [1])).toBeNull();
    expect(numberOrCustomer("INV.2026", [])).toEqual({ or: 'number.ilike."%INV.2026%"' });
    expect(numberOrCustomer("acme", [4, 9])).toEqual({ or: "number.ilike.%acme%,company_id.in.(4,9)" });
  });

  it("become the query parameters a read sends, for the totals", () => {
    expect(
      toQueryPairs([
        { column: "status", op: "in", value: "(unpaid,overdue)" },
        { or: "number.ilike.%7%,company_id.in.(4)" },
      ]),
    ).toEqual([
      ["status", "in.(unpaid,overdue)"],
      ["or", "(number.ilike.%7%,company_id.in.(4))"],
    ]);
  });
});
