import { describe, expect, it } from "vitest";
import { errorMessage } from "./errors.ts";
import { ROLE, roleFlags, SYSTEM_ROLES } from "./roles.ts";

describe("roles (spec §3, §6)", () => {
  it("keeps the spec's ids", () => {
    expect(ROLE).toEqual({
      Admin: 1,
      SalesManager: 2,
      Salesperson: 3,
      Driver: 5,
      WarehouseStaff: 6,
      PosStaff: 7,
      Owner: 31,
    });
    expect(new Set(SYSTEM_ROLES.map((r) => r.id)).size).toBe(SYSTEM_ROLES.length);
    expect(SYSTEM_ROLES.map((r) => r.slug)).toEqual(
      expect.arrayContaining([
        "admin",
        "driver",
        "salesperson",
        "sales_manager",
        "finance_manager",
        "procurement_officer",
        "accounts",
        "supplier",
      ]),
    );
  });

  it("derives flags from role_id, supplier from the slug", () => {
    expect(roleFlags(ROLE.Owner).isOwner).toBe(true);
    expect(roleFlags(ROLE.Driver)).toMatchObject({ isDriver: true, isAdmin: false });
    expect(roleFlags(43, "supplier").isSupplier).toBe(true);
    expect(Object.values(roleFlags(null)).some(Boolean)).toBe(false);
  });
});

describe("errorMessage (spec §8)", () => {
  it("reads msg, message, error_description or error in that order", () => {
    expect(errorMessage({ msg: "a", message: "b" })).toBe("a");
    expect(errorMessage({ error_description: "c", error: "d" })).toBe("c");
    expect(errorMessage({ error: "d" })).toBe("d");
    expect(errorMessage(null, "fallback")).toBe("fallback");
  });
});
