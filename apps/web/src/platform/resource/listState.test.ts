import { describe, expect, it } from "vitest";
import { toPgOrder } from "../data-access/filters.ts";
import { orderColumns, resourceByName, selectWithLabels } from "./definition.ts";
import { newFilterField, readListState, writeListState } from "./listState.ts";

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

  it("sorts a reference column server-side by the referenced row's label, through the embed the list selects", () => {
    const product = resourceByName("product");
    const state = readListState(new URLSearchParams("sort=category_id.desc"));
    expect(state.sort).toEqual([{ field: "category_id", sort: "desc" }]);
    expect(writeListState(state).toString()).toBe("sort=category_id.desc");
    expect(toPgOrder(state.sort, product.defaultOrder, orderColumns(product))).toEqual([
      { column: "category(name)", ascending: false },
      { column: "id", ascending: true },
    ]);
    expect(selectWithLabels(product)).toContain("category:category(id,name)");
    // Columns the engine cannot order (arrays, long text) keep the default order.
    const images = readListState(new URLSearchParams("sort=image_urls.asc,description.desc"));
    expect(toPgOrder(images.sort, product.defaultOrder, orderColumns(product))).toEqual([
      { column: "name", ascending: true },
      { column: "id", ascending: true },
    ]);
  });

  it("offers every reference with an embed as a sortable column of its resource", () => {
    for (const name of ["product", "category", "contact"]) {
      const def = resourceByName(name);
      const refs = def.fields.filter((f) => f.kind === "reference");
      const columns = orderColumns(def);
      for (const f of refs) expect(columns.get(f.name), `${name}.${f.name}`).toMatch(/^[a-z_]+\([a-z_]+\)$/);
    }
  });
});

describe("the column a new filter starts on (issue 9 §2)", () => {
  const ops = [{ value: "contains" }];
  const columns = [
    { field: "__check__" },
    { field: "id", filterOperators: ops },
    { field: "sku", filterOperators: ops },
    { field: "name", filterOperators: ops },
    { field: "notes" },
  ];

  it("is the first column on screen that can be filtered, not the hidden ID", () => {
    expect(newFilterField(columns, ["__check__", "sku", "name"])).toBe("sku");
    expect(newFilterField(columns, ["__check__", "notes", "name", "sku"])).toBe("name");
  });

  it("skips a column a filter already uses, and falls back when nothing on screen can be filtered", () => {
    expect(newFilterField(columns, ["sku", "name"], [{ field: "sku" }])).toBe("name");
    expect(newFilterField(columns, ["sku"], [{ field: "sku" }])).toBe("sku");
    expect(newFilterField(columns, ["notes"])).toBe("id");
    expect(newFilterField([{ field: "notes" }], ["notes"])).toBeNull();
  });
});
