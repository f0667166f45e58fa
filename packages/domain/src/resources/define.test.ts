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
