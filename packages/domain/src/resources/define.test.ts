import { describe, expect, it } from "vitest";

describe("numeric bounds from the definition", () => {
  it("refuses a negative price and a discount over 100 with the field's label", async () => {
    const { productResource } = await import("./master.ts");
    const { projectBrandResource } = await import("./projects.ts");
    const bad = productResource.insert.safeParse({ sku: "X-1", name: "X", unit: "pc", cost: "1", price: "-1" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.find((i) => i.path[0] === "price")?.message).toBe("Price cannot be less than 0");
    const over = projectBrandResource.update.safeParse({ discount_percent: "101" });
    expect(over.error?.issues[0]?.message).toBe("Discount % cannot be more than 100");
  });
});

describe("date bounds from the definition (DESIGN §2.4: 1900-01-01 … 2099-12-31)", () => {
  it("takes a real day in range and names the field otherwise", async () => {
    const { projectResource } = await import("./projects.ts");
    const message = (start_date: string) =>
      projectResource.update.safeParse({ start_date }).error?.issues.find((i) => i.path[0] === "start_date")?.message;
    for (const ok of ["1900-01-01", "2026-02-28", "2024-02-29", "2099-12-31"]) expect(message(ok), ok).toBeUndefined();
    expect(message("1899-12-31")).toBe("Start must be between 1900 and 2099");
    expect(message("2100-01-01")).toBe("Start must be between 1900 and 2099");
    expect(message("2026-02-30")).toBe("Start must be a valid date (YYYY-MM-DD)");
    expect(message("31/12/2026")).toBe("Start must be a valid date (YYYY-MM-DD)");
    expect(projectResource.update.safeParse({ start_date: null }).success).toBe(true);
  });

  it("holds timestamps to the same days in UTC", async () => {
    const { couponResource } = await import("./admin.ts");
    const message = (valid_until: unknown) =>
      couponResource.update.safeParse({ valid_until }).error?.issues.find((i) => i.path[0] === "valid_until")?.message;
    expect(message("2099-12-31T23:59:59.999Z")).toBeUndefined();
    expect(message("1900-01-01T00:00:00Z")).toBeUndefined();
    expect(message("1899-12-31T23:59:59Z")).toBe("Valid until must be between 1900 and 2099");
    expect(message("2100-01-01T00:00:00Z")).toBe("Valid until must be between 1900 and 2099");
    expect(message("soon")).toBe("Valid until must be a valid date and time");
    expect(couponResource.update.safeParse({ valid_until: null }).success).toBe(true);
  });
});
