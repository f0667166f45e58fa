import { describe, expect, it } from "vitest";
import { readListState, writeListState } from "./listState.ts";

describe("list state in the URL", () => {
  it("defaults to the first page of 50, no sort, no filters", () => {
    expect(readListState(new URLSearchParams())).toEqual({
      pagination: { page: 0, pageSize: 50 },
      sort: [],
      filter: { items: [], logicOperator: undefined, quickFilterValues: [] },
    });
    expect(writeListState(readListState(new URLSearchParams())).toString()).toBe("");
  });

  it("round-trips page, size, sort, search and filters", () => {
    const day = new Date(2026, 2, 5);
    const state = {
      pagination: { page: 2, pageSize: 100 },
      sort: [{ field: "price", sort: "desc" as const }],
      filter: {
        items: [{ id: 2, field: "created_at", operator: "after", value: day }],
        logicOperator: "or" as never,
        quickFilterValues: ["red", "cap"],
      },
    };
    const params = writeListState(state);
    expect(params.get("page")).toBe("3");
    expect(params.get("q")).toBe("red cap");
    expect(readListState(params)).toEqual(state);
  });

  it("keeps one filter item, as the grid does", () => {
    const f = JSON.stringify({
      items: [
        { field: "a", operator: "contains", value: "x" },
        { field: "b", operator: "contains", value: "y" },
      ],
    });
    expect(readListState(new URLSearchParams({ f })).filter.items).toEqual([
      { field: "a", operator: "contains", value: "x" },
    ]);
  });

  it("ignores nonsense", () => {
    const s = readListState(new URLSearchParams("page=-4&size=7&f=%7Bbad&sort=name"));
    expect(s.pagination).toEqual({ page: 0, pageSize: 50 });
    expect(s.filter.items).toEqual([]);
    expect(s.sort).toEqual([{ field: "name", sort: "asc" }]);
  });
});
