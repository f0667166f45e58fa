import { describe, expect, it } from "vitest";
import { can, DEFAULT_ROLE_PERMISSIONS, matches } from "./permissions.ts";
import { ROLE } from "./roles.ts";

describe("permissions", () => {
  it("matches exact names and wildcards", () => {
    expect(matches("*", "product.delete")).toBe(true);
    expect(matches("product.*", "product.delete")).toBe(true);
    expect(matches("*.read", "product.read")).toBe(true);
    expect(matches("*.read", "product.update")).toBe(false);
    expect(matches("product.read", "products.read")).toBe(false);
  });

  it("gives system roles sensible defaults", () => {
    expect(can(DEFAULT_ROLE_PERMISSIONS[ROLE.Owner], "workspace.update")).toBe(true);
    expect(can(DEFAULT_ROLE_PERMISSIONS[ROLE.Salesperson], "quotation.create")).toBe(true);
    expect(can(DEFAULT_ROLE_PERMISSIONS[ROLE.Salesperson], "product.delete")).toBe(false);
    expect(can(DEFAULT_ROLE_PERMISSIONS[ROLE.Driver], "invoice.read")).toBe(false);
  });
});
