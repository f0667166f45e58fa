import { describe, expect, it } from "vitest";
import { itemKey, itemOptions, takesServices } from "./items.ts";

describe("the line picker's items", () => {
  it("lists products before services and tells a product from a service of the same id", () => {
    const rows = [
      { id: 1, name: "Install", kind: "service" },
      { id: 1, name: "Cable", kind: "product" },
      { id: 2, name: "Drill", kind: "product" },
    ];
    expect(itemOptions(rows).map((r) => r.name)).toEqual(["Cable", "Drill", "Install"]);
    expect(itemKey(rows[0])).not.toBe(itemKey(rows[1]));
  });
  it("offers services on selling and billing documents, not on those that move goods", () => {
    expect(takesServices("quotation")).toBe(true);
    expect(takesServices("supplier_invoice")).toBe(true);
    expect(takesServices("delivery_order")).toBe(false);
    expect(takesServices("goods_transfer_form")).toBe(false);
  });
});
