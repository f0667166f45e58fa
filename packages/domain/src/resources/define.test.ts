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
    expect(message("2026-02-30")).toBe("Start must be a valid date");
    expect(message("31/12/2026")).toBe("Start must be a valid date");
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

const messages = (r: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));

describe("cross-field rules (project dates in order)", () => {
  it("puts End before Start on End, on insert and on an update that sends both", async () => {
    const { projectResource } = await import("./projects.ts");
    const bad = { code: "P-1", name: "Fit-out", start_date: "2026-05-01", end_date: "2026-04-30" };
    expect(messages(projectResource.insert.safeParse(bad))).toEqual({ end_date: "End must be on or after Start" });
    expect(messages(projectResource.update.safeParse({ start_date: "2026-05-01", end_date: "2026-04-30" }))).toEqual({
      end_date: "End must be on or after Start",
    });
    expect(projectResource.insert.safeParse({ ...bad, end_date: "2026-05-01" }).success).toBe(true);
  });

  it("judges only what it can: one date of a patch, a cleared date, an invalid date", async () => {
    const { projectResource } = await import("./projects.ts");
    expect(projectResource.update.safeParse({ end_date: "2000-01-01" }).success).toBe(true);
    expect(projectResource.update.safeParse({ start_date: "2026-05-01", end_date: null }).success).toBe(true);
    expect(messages(projectResource.update.safeParse({ start_date: "2026-05-01", end_date: "2026-02-30" }))).toEqual({
      end_date: "End must be a valid date",
    });
  });

  it("still runs when another field is missing, so every problem shows at once", async () => {
    const { projectResource } = await import("./projects.ts");
    const r = projectResource.insert.safeParse({ start_date: "2026-05-01", end_date: "2026-04-30" });
    expect(Object.keys(messages(r)).sort()).toEqual(["code", "end_date", "name"]);
  });

  it("catalogues the table CHECKs with a message and a field", async () => {
    const { checkMessage } = await import("./index.ts");
    expect(checkMessage("project_dates_in_order")).toEqual({
      field: "end_date",
      message: "End must be on or after Start",
    });
    for (const name of [
      "category_not_own_parent",
      "product_prices_not_negative",
      "service_price_not_negative",
      "project_brand_discount_range",
      "currency_factor_positive",
    ]) {
      expect(checkMessage(name)?.message, name).toBeTruthy();
    }
    expect(checkMessage("no_such_check")).toBeUndefined();
  }, 30_000); // the first import of every resource: seconds when the machine is loaded
});

describe("every empty required field at once", () => {
  it("reports SKU and Name together", async () => {
    const { productResource } = await import("./master.ts");
    expect(Object.keys(messages(productResource.insert.safeParse({}))).sort()).toEqual(["name", "sku"]);
  });
});

describe("numbers that cannot be negative, decimals by the column's scale", () => {
  it("refuses a negative budget, credit limit and payment terms", async () => {
    const { projectResource } = await import("./projects.ts");
    const { companyResource } = await import("./crm.ts");
    expect(messages(projectResource.update.safeParse({ budget: "-100" }))).toEqual({
      budget: "Budget cannot be less than 0",
    });
    expect(messages(companyResource.update.safeParse({ credit_limit: -1, payment_terms_days: -30 }))).toEqual({
      credit_limit: "Credit limit cannot be less than 0",
      payment_terms_days: "Payment terms (days) cannot be less than 0",
    });
    expect(companyResource.update.safeParse({ credit_limit: "0", payment_terms_days: 30 }).success).toBe(true);
  });

  it("refuses a third decimal on money, not on a six-decimal rate", async () => {
    const { productResource } = await import("./master.ts");
    const { currencyFactorResource } = await import("./projects.ts");
    expect(messages(productResource.update.safeParse({ price: "19.999" }))).toEqual({
      price: "Price can have at most 2 decimals",
    });
    expect(messages(productResource.update.safeParse({ price: 19.999 }))).toEqual({
      price: "Price can have at most 2 decimals",
    });
    expect(productResource.update.safeParse({ price: "19.99" }).success).toBe(true);
    expect(currencyFactorResource.update.safeParse({ factor: "1.234567" }).success).toBe(true);
    expect(messages(currencyFactorResource.update.safeParse({ factor: "0" }))).toEqual({
      factor: "Rate to base currency must be more than 0",
    });
  });
});

describe("text lengths and web addresses", () => {
  it("holds codes, names and long text to their limits, naming the field", async () => {
    const { productResource, brandResource } = await import("./master.ts");
    const r = productResource.update.safeParse({
      sku: "S".repeat(65),
      name: "N".repeat(201),
      description: "D".repeat(10_001),
    });
    expect(messages(r)).toEqual({
      sku: "SKU must be at most 64 characters",
      name: "Name must be at most 200 characters",
      description: "Description must be at most 10000 characters",
    });
    expect(
      productResource.update.safeParse({ sku: "S".repeat(64), name: "N".repeat(200), description: "D".repeat(10_000) })
        .success,
    ).toBe(true);
    expect(brandResource.update.safeParse({ website: "https://example.com/path?q=1" }).success).toBe(true);
    for (const bad of ["not a url", "example.com", "ftp://example.com", "https://", "https://exa mple.com"]) {
      expect(messages(brandResource.update.safeParse({ website: bad })), bad).toEqual({
        website: "Website must be a web address starting with http:// or https://",
      });
    }
    expect(brandResource.update.safeParse({ website: null }).success).toBe(true);
    const { bannerResource } = await import("./admin.ts");
    expect(bannerResource.update.safeParse({ link_url: "/book-a-demo" }).success).toBe(true);
    expect(bannerResource.update.safeParse({ link_url: "//evil.example" }).success).toBe(false);
    expect(brandResource.update.safeParse({ website: "/book-a-demo" }).success).toBe(false);
  });

  it("gives every text field of every resource a limit", async () => {
    const { RESOURCES } = await import("./index.ts");
    const { textLimit } = await import("./fields.ts");
    for (const def of RESOURCES) {
      for (const field of def.fields.filter((f) => ["text", "textarea", "email", "phone", "url"].includes(f.kind))) {
        expect(textLimit(field), `${def.name}.${field.name}`).toBeGreaterThan(0);
      }
    }
  }, 30_000); // the first import of every resource: seconds when the machine is loaded
});

describe("company UEN from the definition (issue 9 §2)", () => {
  it("refuses what is not a Singapore UEN, by the field's label, on insert and update", async () => {
    const { companyResource } = await import("./crm.ts");
    const message = "UEN must be a Singapore UEN such as 201912345K, 12345678X or T09LL0001B";
    expect(messages(companyResource.insert.safeParse({ name: "Acme", uen: "xyz" }))).toEqual({ uen: message });
    expect(messages(companyResource.update.safeParse({ uen: "2019-12345K" }))).toEqual({ uen: message });
  });

  it("takes each ACRA format, in capitals, and leaves an optional UEN out or empty", async () => {
    const { companyResource } = await import("./crm.ts");
    const uen = (v: unknown) => companyResource.update.parse({ uen: v }).uen;
    expect(uen("12345678X")).toBe("12345678X");
    expect(uen("201912345K")).toBe("201912345K");
    expect(uen(" t09ll0001b ")).toBe("T09LL0001B");
    expect(uen(null)).toBeNull();
    expect(uen("")).toBe("");
    expect(companyResource.insert.safeParse({ name: "Acme" }).success).toBe(true);
  });
});
