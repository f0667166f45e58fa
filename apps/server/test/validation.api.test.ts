import { RESOURCES } from "@workmetrics/domain/resources";
import { describe, expect, it } from "vitest";
import { restFetch } from "./rest-helpers.ts";

// The registry's validation as the REST engine answers it: cross-field rules, CHECK constraints read as the form's
// own messages, number bounds, text limits, web addresses and money decimals (422 naming the field).
const ADMIN = "admin@demo.test";
const tag = `V${Date.now().toString(36).slice(-6).toUpperCase()}`;

type Issue = { field: string; message: string };
type ErrorBody = { code: string; message: string; details: Issue[] | null };

const post = (resource: string, body: unknown) =>
  restFetch(ADMIN, resource, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { prefer: "return=representation" },
  });

const issues = (body: unknown) => ((body as ErrorBody).details ?? []) as Issue[];
const issueOf = (body: unknown, field: string) => issues(body).find((i) => i.field === field)?.message;

describe("validation through /rest/v1", () => {
  it("refuses a project that ends before it starts, on End with the form's message", async () => {
    const res = await post("project", {
      code: `${tag}-1`,
      name: "Backwards",
      start_date: "2026-05-01",
      end_date: "2026-04-30",
    });
    expect(res.status).toBe(422);
    expect(issueOf(res.body, "end_date")).toBe("End must be on or after Start");
    expect(res.text).not.toMatch(/violates|relation/);
  });

  it("explains the database's CHECK when a patch sends only End, before the stored Start", async () => {
    const made = await post("project", { code: `${tag}-2`, name: "Patched", start_date: "2026-05-01" });
    expect(made.status).toBe(201);
    const id = (made.body as { id: number }[])[0]?.id;
    const res = await restFetch(ADMIN, `project?id=eq.${id}`, {
      method: "PATCH",
      body: JSON.stringify({ end_date: "2026-04-01" }),
    });
    expect(res.status).toBe(422);
    const body = res.body as ErrorBody;
    expect(body.code).toBe("23514");
    expect(body.message).toBe("End must be on or after Start");
    expect(issueOf(body, "end_date")).toBe("End must be on or after Start");
    expect(res.text).not.toMatch(/violates|project_dates_in_order/);
    const ok = await restFetch(ADMIN, `project?id=eq.${id}`, {
      method: "PATCH",
      body: JSON.stringify({ end_date: "2026-05-01" }),
    });
    expect(ok.status).toBe(204);
  });

  it("refuses a negative budget", async () => {
    const res = await post("project", { code: `${tag}-3`, name: "Negative", budget: -100 });
    expect(res.status).toBe(422);
    expect(issueOf(res.body, "budget")).toBe("Budget cannot be less than 0");
  });

  it("refuses a name over 200 characters", async () => {
    const res = await post("product", { sku: `${tag}-4`, name: "N".repeat(201) });
    expect(res.status).toBe(422);
    expect(issueOf(res.body, "name")).toBe("Name must be at most 200 characters");
  });

  it("refuses a website that is not an http(s) address", async () => {
    const res = await post("brand", { name: `${tag} Brand`, website: "not a url" });
    expect(res.status).toBe(422);
    expect(issueOf(res.body, "website")).toBe("Website must be a web address starting with http:// or https://");
  });

  it("refuses a UEN that is not a Singapore UEN and keeps a good one in capitals", async () => {
    const bad = await post("company", { name: `${tag} Bad UEN`, uen: "xyz" });
    expect(bad.status).toBe(422);
    expect(issueOf(bad.body, "uen")).toBe("UEN must be a Singapore UEN such as 201912345K, 12345678X or T09LL0001B");
    const good = await post("company", { name: `${tag} Good UEN`, uen: " t09ll0001b " });
    expect(good.status).toBe(201);
    expect((good.body as { uen: string }[])[0]?.uen).toBe("T09LL0001B");
    const id = (good.body as { id: number }[])[0]?.id;
    const patch = await restFetch(ADMIN, `company?id=eq.${id}`, {
      method: "PATCH",
      body: JSON.stringify({ uen: "1" }),
    });
    expect(patch.status).toBe(422);
    expect(issueOf(patch.body, "uen")).toMatch(/^UEN must be a Singapore UEN/);
  });

  it("refuses a price with three decimals instead of rounding it", async () => {
    const res = await post("product", { sku: `${tag}-5`, name: "Rounded", price: "19.999" });
    expect(res.status).toBe(422);
    expect(issueOf(res.body, "price")).toBe("Price can have at most 2 decimals");
  });

  it("names a value of the wrong type in plain words, never zod's", async () => {
    const res = await post("product", {
      sku: 5,
      name: "Typed",
      active: "maybe",
      tax_code: "ZZ",
      image_urls: "one.png",
    });
    expect(res.status).toBe(422);
    expect(issueOf(res.body, "sku")).toBe("SKU must be text");
    expect(issueOf(res.body, "active")).toBe("Active must be true or false");
    expect(issueOf(res.body, "tax_code")).toBe("Tax code must be one of SR, ZR, ES, OS");
    expect(issueOf(res.body, "image_urls")).toBe("Images must be a list");
    expect(JSON.stringify(res.body)).not.toMatch(/Invalid input|expected \w+, received/);
  });

  it("lists every missing required field of an empty insert", async () => {
    const res = await post("product", {});
    expect(res.status).toBe(422);
    expect(
      issues(res.body)
        .map((i) => i.field)
        .sort(),
    ).toEqual(["name", "sku"]);
    expect(issueOf(res.body, "sku")).toBe("SKU is required");
    expect(issueOf(res.body, "name")).toBe("Name is required");
  });

  it("the demo data satisfies every rule of the registry", async () => {
    for (const def of RESOURCES.filter((r) => (r.actions ?? ["update"]).includes("update"))) {
      const res = await restFetch(ADMIN, `${def.name}?select=*&limit=1000`);
      if (res.status !== 200) continue; // not the admin's to read
      const writable = Object.keys((def.update as unknown as { shape: Record<string, unknown> }).shape);
      for (const row of res.body as Record<string, unknown>[]) {
        const values = Object.fromEntries(writable.filter((k) => k in row).map((k) => [k, row[k]]));
        const parsed = def.update.safeParse(values);
        expect(parsed.error?.issues ?? [], `${def.name} ${JSON.stringify(row.id)}`).toEqual([]);
      }
    }
  });
});
