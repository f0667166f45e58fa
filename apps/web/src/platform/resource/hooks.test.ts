import { describe, expect, it } from "vitest";
import { resourceByName } from "./definition.ts";
import { listParams } from "./hooks.ts";
import { readListState } from "./listState.ts";

// A list address shared by someone who reads product costs, opened by someone who does not (supplier, driver, POS).
const shared = (query: string) => readListState(new URLSearchParams(query));
const noCost = (resource: string) => resource !== "product_cost.read";
const costFilter = JSON.stringify({ items: [{ id: 1, field: "cost", operator: ">", value: "100" }] });

describe("listParams on a column the member may not read", () => {
  const product = resourceByName("product");

  it("drops a filter on it, as it drops a sort on it", () => {
    const state = shared(`f=${encodeURIComponent(costFilter)}&sort=cost.desc`);
    const params = listParams(product, state, product.search, noCost);
    expect(params.filters).toEqual([]);
    expect(params.order.map((o) => o.column)).not.toContain("cost");
  });

  it("keeps both for a member who reads it", () => {
    const params = listParams(product, shared(`f=${encodeURIComponent(costFilter)}&sort=cost.desc`), product.search);
    expect(params.filters).toEqual([{ column: "cost", op: "gt", value: "100" }]);
    expect(params.order[0]).toEqual({ column: "cost", ascending: false });
  });
});
