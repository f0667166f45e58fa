import { describe, expect, it } from "vitest";
import { api, baseUrl } from "./http.ts";

const demo = {
  name: "Jane Doe",
  email: "Jane@Example.com",
  companyName: "Acme Pte Ltd",
  companySize: "16-50",
  interest: "Everything",
  preferredDate: "2026-12-01",
};

describe("health and public site API", () => {
  it("reports health with the database kind", async () => {
    const { status, body } = await api("/api/health");
    expect(status).toBe(200);
    expect(body.status).toBe("ok");
    expect(body.database).toBe(process.env.TEST_DATABASE_URL ? "postgresql" : "pglite");
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("serves the three tiers with the spec's prices", async () => {
    const { body: tiers } = await api("/api/public/tiers");
    expect(tiers.map((t: Record<string, unknown>) => [t.id, t.monthlyPrice, t.yearlyPrice])).toEqual([
      [10, "89.00", "961.20"],
      [11, "149.00", "1609.20"],
      [12, "249.00", "2988.00"],
    ]);
    expect(tiers[2].features).toContain("pos");
    expect(tiers[0].features).not.toContain("projects");
  });

  it("serves seeded case studies and banners for the landing page", async () => {
    const { body } = await api("/api/public/landing");
    expect(body.caseStudies.length).toBeGreaterThanOrEqual(3);
    expect(body.caseStudies[0]).toHaveProperty("companyName");
    expect(body.banners.length).toBeGreaterThanOrEqual(1);
  });

  it("serves dashboard banners apart from the landing page's", async () => {
    const { body } = await api("/api/public/banners/dashboard");
    expect(body.map((b: { title: string }) => b.title)).toContain("Year-end stock take");
    expect(body.map((b: { title: string }) => b.title)).not.toContain("New: progressive claims for project billing");
  });

  it("stores a valid demo request", async () => {
    const { status, body } = await api("/api/public/demo-requests", { method: "POST", json: demo });
    expect(status).toBe(201);
    expect(body.id).toBeGreaterThan(0);
  });

  it("refuses a bad demo request with the field at fault", async () => {
    const { status, body } = await api("/api/public/demo-requests", {
      method: "POST",
      json: { ...demo, email: "not-an-email", companySize: "huge" },
    });
    expect(status).toBe(422);
    expect(body.code).toBe("validation_failed");
    expect(body.details).toContainEqual({ field: "email", message: "Enter a valid e-mail address" });
    expect(body.details).toContainEqual({ field: "companySize", message: "Choose your company size" });
  });

  it("limits demo requests per address: the thirteenth in an hour is 429 with a retry time (issue 21 §2)", async () => {
    const from = { "x-forwarded-for": `198.51.100.${(Date.now() % 200) + 20}` };
    for (let i = 0; i < 12; i++) {
      const res = await api("/api/public/demo-requests", { method: "POST", headers: from, json: demo });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const refused = await api("/api/public/demo-requests", { method: "POST", headers: from, json: demo });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(
      /^Too many demo requests from your network\. Please try again in \d+ minutes?\.$/,
    );
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another address is not held back by this one.
    const other = await api("/api/public/demo-requests", {
      method: "POST",
      headers: { "x-forwarded-for": "203.0.113.77" },
      json: demo,
    });
    expect(other.status).toBe(201);
  });

  it("limits calendar feed fetches per address, unknown tokens counted too (issue 21 §2)", async () => {
    const from = { "x-forwarded-for": `198.51.100.${(Date.now() % 10) + 230}` };
    const token = "0".repeat(48);
    for (let i = 0; i < 120; i++) {
      const res = await api(`/api/calendar/${token}.ics`, { headers: from });
      expect(res.status).toBe(404);
    }
    const refused = await api(`/api/calendar/${token}.ics`, { headers: from });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Too many calendar requests from your network\./);
  });

  it("answers malformed JSON with 400, not 500", async () => {
    const { status, body } = await api("/api/public/demo-requests", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(status).toBe(400);
    expect(JSON.stringify(body)).not.toMatch(/\.ts:\d+/);
  });

  it("serves the app's page to a client that accepts anything, with long caching only for hashed assets", async () => {
    const res = await fetch(`${baseUrl()}/`, { headers: { accept: "*/*" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(await res.text())?.[1];
    expect(asset).toBeTruthy();
    const js = await fetch(`${baseUrl()}${asset}`);
    expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  // Issue 9 §4: HEAD / answered 404; a page answers HEAD as it answers GET, without a body.
  it.each(["/", "/pricing", "/dashboard", "/auth/login?redirectedFrom=%2Fdashboard"])(
    "answers HEAD %s as GET, without a body",
    async (path) => {
      const init = { headers: { accept: "text/html" }, redirect: "manual" } as const;
      const get = await fetch(`${baseUrl()}${path}`, init);
      const head = await fetch(`${baseUrl()}${path}`, { ...init, method: "HEAD" });
      expect(get.status).toBeLessThan(400);
      expect(head.status).toBe(get.status);
      for (const name of ["content-type", "location", "cache-control"]) {
        expect(head.headers.get(name)).toBe(get.headers.get(name));
      }
      expect(await head.text()).toBe("");
    },
  );

  it("answers unknown API paths with JSON 404 and sends security headers", async () => {
    const { status, headers, body } = await api("/api/nope", { headers: { accept: "text/html" } });
    expect(status).toBe(404);
    expect(body.code).toBe("not_found");
    expect(headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("x-request-id")).toBeTruthy();
  });
});
