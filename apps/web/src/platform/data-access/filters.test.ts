import type { GridFilterModel } from "@mui/x-data-grid";
import type { FieldDef } from "@workmetrics/domain/resources/types";
import { describe, expect, it } from "vitest";
import { escapeLike, parseOrder, quickSearch, quoteValue, toDay, toPgFilters, toPgOrder } from "./filters.ts";

const fields: FieldDef[] = [
  { name: "name", label: "Name", kind: "text" },
  { name: "price", label: "Price", kind: "money" },
  { name: "active", label: "Active", kind: "boolean" },
  { name: "status", label: "Status", kind: "status", options: ["draft", "sent"] },
  { name: "due_on", label: "Due", kind: "date" },
  { name: "created_at", label: "Created", kind: "datetime" },
  { name: "category_id", label: "Category", kind: "reference", reference: { resource: "category", display: "name" } },
];

const model = (
  items: { field: string; operator: string; value?: unknown }[],
  logic?: "and" | "or",
): GridFilterModel => ({
  items,
  logicOperator: logic as GridFilterModel["logicOperator"],
});

describe("quoteValue", () => {
  it("leaves plain values alone and quotes reserved characters", () => {
    expect(quoteValue("abc")).toBe("abc");
    expect(quoteValue("a.b")).toBe('"a.b"');
    expect(quoteValue("a-b c")).toBe("a-b c");
    expect(quoteValue("a,b")).toBe('"a,b"');
    expect(quoteValue("f(x)")).toBe('"f(x)"');
    expect(quoteValue('say "hi"')).toBe('"say \\"hi\\""');
    expect(quoteValue("null")).toBe('"null"');
    expect(quoteValue("")).toBe('""');
  });
});

describe("escapeLike", () => {
  it("makes LIKE wildcards literal", () => {
    expect(escapeLike("50%_off\\")).toBe("50\\%\\_off\\\\");
  });
});

describe("quickSearch", () => {
  it("matches the phrase in any search column", () => {
    expect(quickSearch(["name", "sku"], "  bolt ")).toEqual({ or: "name.ilike.%bolt%,sku.ilike.%bolt%" });
  });
  it("quotes a phrase holding a comma", () => {
    expect(quickSearch(["name"], "a,b")).toEqual({ or: 'name.ilike."%a,b%"' });
  });
  it("is nothing for a blank phrase or no columns", () => {
    expect(quickSearch(["name"], "  ")).toBeNull();
    expect(quickSearch([], "x")).toBeNull();
  });
});

describe("toPgFilters", () => {
  it("maps text operators to ilike patterns", () => {
    expect(
      toPgFilters(
        model([
          { field: "name", operator: "contains", value: "bo" },
          { field: "name", operator: "startsWith", value: "B" },
          { field: "name", operator: "doesNotContain", value: "x" },
        ]),
        fields,
        [],
      ),
    ).toEqual([
      { column: "name", op: "ilike", value: "%bo%" },
      { column: "name", op: "ilike", value: "B%" },
      { column: "name", op: "not.ilike", value: "%x%" },
    ]);
  });

  it("maps numbers, booleans, choices and emptiness", () => {
    expect(
      toPgFilters(
        model([
          { field: "price", operator: ">=", value: "10.5" },
          { field: "active", operator: "is", value: "true" },
          { field: "status", operator: "not", value: "draft" },
          { field: "name", operator: "isEmpty" },
          { field: "price", operator: "isAnyOf", value: [1, 2] },
        ]),
        fields,
        [],
      ),
    ).toEqual([
      { column: "price", op: "gte", value: "10.5" },
      { column: "active", op: "is", value: "true" },
      { column: "status", op: "neq", value: "draft" },
      { column: "name", op: "is", value: "null" },
      { column: "price", op: "in", value: "(1,2)" },
    ]);
  });

  it("skips incomplete items, unknown columns and references", () => {
    expect(
      toPgFilters(
        model([
          { field: "name", operator: "contains", value: "" },
          { field: "price", operator: ">", value: "abc" },
          { field: "nope", operator: "contains", value: "x" },
          { field: "category_id", operator: "contains", value: "x" },
        ]),
        fields,
        [],
      ),
    ).toEqual([]);
  });

  it("compares dates as calendar days and timestamps as the local day's bounds", () => {
    const [filter, ...rest] = toPgFilters(
      model([
        { field: "due_on", operator: "onOrBefore", value: new Date(2026, 2, 5) },
        { field: "created_at", operator: "is", value: "2026-03-05" },
      ]),
      fields,
      [],
    );
    expect(filter).toEqual({ column: "due_on", op: "lte", value: "2026-03-05" });
    expect(rest).toEqual([
      { column: "created_at", op: "gte", value: new Date(2026, 2, 5).toISOString() },
      { column: "created_at", op: "lt", value: new Date(2026, 2, 6).toISOString() },
    ]);
  });

  it("joins items with OR into one or=(…)", () => {
    expect(
      toPgFilters(
        model(
          [
            { field: "name", operator: "equals", value: "a,b" },
            { field: "price", operator: "<", value: 3 },
            { field: "created_at", operator: "is", value: "2026-01-01" },
          ],
          "or",
        ),
        fields,
        [],
      ),
    ).toEqual([
      {
        or: `name.ilike."a,b",price.lt.3,and(created_at.gte.${quoteValue(new Date(2026, 0, 1).toISOString())},created_at.lt.${quoteValue(new Date(2026, 0, 2).toISOString())})`,
      },
    ]);
  });

  it("nests the quick search and another disjunction under one or", () => {
    const out = toPgFilters(
      {
        items: [{ field: "created_at", operator: "not", value: "2026-01-01" }],
        quickFilterValues: ["red", "bolt"],
      },
      fields,
      ["name"],
    );
    expect(out).toHaveLength(1);
    const or = (out[0] as { or: string }).or;
    expect(or.startsWith("and(or(created_at.lt.")).toBe(true);
    expect(or.endsWith(",or(name.ilike.%red bolt%))")).toBe(true);
  });
});

describe("ordering", () => {
  it("parses a PostgREST order", () => {
    expect(parseOrder("name.asc,created_at.desc.nullslast")).toEqual([
      { column: "name", ascending: true },
      { column: "created_at", ascending: false, nullsFirst: false },
    ]);
  });
  it("uses the grid's sort on sortable columns, else the default, then id", () => {
    const sortable = new Map([["price", "price"]]);
    expect(toPgOrder([{ field: "price", sort: "desc" }], "name.asc", sortable)).toEqual([
      { column: "price", ascending: false },
      { column: "id", ascending: true },
    ]);
    expect(toPgOrder([{ field: "category_id", sort: "asc" }], "name.asc", sortable)).toEqual([
      { column: "name", ascending: true },
      { column: "id", ascending: true },
    ]);
    expect(toPgOrder([], "id.desc", new Map())).toEqual([{ column: "id", ascending: false }]);
  });
  it("sorts a reference column by what the server orders it by (a related order)", () => {
    const sortable = new Map([["category_id", "category(name)"]]);
    expect(toPgOrder([{ field: "category_id", sort: "desc" }], "name.asc", sortable)).toEqual([
      { column: "category(name)", ascending: false },
      { column: "id", ascending: true },
    ]);
  });
});

describe("toDay", () => {
  it("reads Dates and ISO strings, refuses the rest", () => {
    expect(toDay(new Date(2026, 11, 31))).toBe("2026-12-31");
    expect(toDay("2026-01-02T10:00:00Z")).toBe("2026-01-02");
    expect(toDay("soon")).toBeNull();
  });
});
