import { RESOURCES } from "@workmetrics/domain/resources";
import { describe, expect, it } from "vitest";
import { expand, grantable, toggle } from "./matrix.ts";

describe("permission matrix", () => {
  const rows = grantable(RESOURCES);

  it("lists tenant resources and the workspace, not platform tables", () => {
    const names = rows.map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(["product", "company", "user", "workspace_role", "workspace"]));
    expect(names).not.toContain("coupon");
  });

  it("expands wildcards into explicit grants", () => {
    const all = expand(["*"], rows);
    expect(all.has("product.delete")).toBe(true);
    const reads = expand(["*.read", "product.*"], rows);
    expect(reads.has("company.read")).toBe(true);
    expect(reads.has("company.update")).toBe(false);
    expect(reads.has("product.delete")).toBe(true);
  });

  it("writing implies reading; removing read removes the rest", () => {
    const withUpdate = toggle(new Set(), "product", "update");
    expect([...withUpdate].sort()).toEqual(["product.read", "product.update"]);
    expect([...toggle(withUpdate, "product", "read")]).toEqual([]);
  });
});
