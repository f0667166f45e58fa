import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./harness.ts";
import { DEMO_PASSWORD } from "./rest-helpers.ts";

// Issue 9 §3 item 2: Prefer: count=planned / count=estimated must not tell one workspace how many rows another has.
// The planner's estimate comes from statistics over every workspace, so tenant tables answer from the caller's own
// rows. A server of its own, so the test can ANALYZE (fresh statistics are what made the estimate leak).

const DEMO = "owner@demo.test";
const PRO = "owner@pro.test";
const N = 1500;
const SECRET = "Secret Alpha";

describe("planned and estimated counts stay inside the workspace", () => {
  let server: TestServer;
  let apikey = "";
  const tokens = new Map<string, string>();

  const call = async (email: string, path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("apikey", apikey);
    headers.set("authorization", `Bearer ${tokens.get(email)}`);
    if (init.body) headers.set("content-type", "application/json");
    const res = await fetch(`${server.url}/rest/v1/${path}`, { ...init, headers });
    return { status: res.status, range: res.headers.get("content-range"), body: await res.text() };
  };
  const total = async (email: string, path: string, count: "planned" | "estimated" | "exact") => {
    const res = await call(email, path, { headers: { prefer: `count=${count}` } });
    expect(res.status, res.body).toBe(200);
    return res.range?.split("/")[1];
  };

  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: "silent" });
    apikey = ((await (await fetch(`${server.url}/api/config`)).json()) as { anonKey: string }).anonKey;
    for (const email of [DEMO, PRO]) {
      const res = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
        method: "POST",
        headers: { "content-type": "application/json", apikey },
        body: JSON.stringify({ email, password: DEMO_PASSWORD }),
      });
      tokens.set(email, ((await res.json()) as { access_token: string }).access_token);
    }
    const rows = Array.from({ length: N }, (_, i) => ({ sku: `SECRET-${i}`, name: SECRET, price: "1" }));
    const created = await call(DEMO, "product", { method: "POST", body: JSON.stringify(rows) });
    expect(created.status, created.body).toBe(201);
    // Fresh statistics: the planner now knows how common "Secret Alpha" is across all workspaces.
    await server.running.database.db.execute(sql`analyze product`);
  }, 180_000);
  afterAll(() => server?.close());

  const secret = `product?select=id&name=eq.${encodeURIComponent(SECRET)}&limit=1`;

  it("another workspace's member learns */0 from a filter that matches only demo's rows", async () => {
    expect(await total(PRO, secret, "planned")).toBe("0");
    expect(await total(PRO, secret, "estimated")).toBe("0");
    expect(await total(PRO, secret, "exact")).toBe("0");
  });

  it("an unfiltered planned or estimated total is the workspace's own row count", async () => {
    const all = "product?select=id&limit=1";
    const own = await total(PRO, all, "exact");
    expect(await total(PRO, all, "planned")).toBe(own);
    expect(await total(PRO, all, "estimated")).toBe(own);
    const demo = await total(DEMO, all, "exact");
    expect(Number(demo)).toBeGreaterThanOrEqual(N);
    expect(await total(DEMO, all, "planned")).toBe(demo);
  });

  it("the workspace that has the rows gets their number", async () => {
    expect(await total(DEMO, secret, "planned")).toBe(String(N));
    expect(await total(DEMO, secret, "estimated")).toBe(String(N));
  });
});
