import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inRequest } from "../src/platform/db/database.ts";
import { startTestServer, type TestServer } from "./harness.ts";
import { DEMO_PASSWORD, rest, restFetch } from "./rest-helpers.ts";

// Issue 9 §3 item 3: one request cannot run away — caps on embeds and their depth, PostgREST's db-max-rows
// (MAX_ROWS), and a statement timeout per request transaction (STATEMENT_TIMEOUT_MS).

const OWNER = "owner@demo.test";
const pglite = !process.env.TEST_DATABASE_URL;
const embeds = (n: number) => Array.from({ length: n }, (_, i) => `c${i + 1}:category(id)`).join(",");

describe("embed caps (the suite's server)", () => {
  it("refuses more than 20 embeds in one request, naming the cap and what was asked", async () => {
    const res = await restFetch(OWNER, `product?select=id,${embeds(21)}&limit=1`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "PGRST100",
      message: expect.stringMatching(/asks for 21, at most 20/),
      details: expect.stringMatching(/21/),
    });
    expect((await restFetch(OWNER, `product?select=id,${embeds(20)}&limit=1`)).status).toBe(200);
  });

  it("refuses embeds nested more than 6 levels deep, in the select and in a filter's path", async () => {
    const deep = "a(b(c(d(e(f(g(id)))))))";
    const res = await restFetch(OWNER, `product?select=id,${deep}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "PGRST100",
      message: "Embedded resources nest 7 levels deep; at most 6 are allowed",
    });
    const path = await restFetch(OWNER, "product?select=id&a.b.c.d.e.f.g.id=eq.1");
    expect(path.status).toBe(400);
    expect(path.body).toMatchObject({ code: "PGRST100", message: expect.stringMatching(/7 levels deep; at most 6/) });
  });

  it("still imports 1,000 rows through csv_import and reads them back in one page of the default 1,000", async () => {
    const tag = `RL${Date.now().toString(36).toUpperCase()}`;
    const db = await rest(OWNER);
    try {
      const rows = Array.from({ length: 1000 }, (_, i) => ({ SKU: `${tag}-${i}`, Name: `${tag} ${i}`, Price: "2" }));
      const res = await db.rpc("csv_import", { resource: "product", rows });
      expect(res.error).toBeNull();
      expect(res.data).toMatchObject({ committed: true, imported: 1000 });
      const back = await restFetch(OWNER, `product?select=sku&sku=like.${tag}-*&limit=5000`, {
        headers: { prefer: "count=exact" },
      });
      expect(back.body).toHaveLength(1000);
      expect(back.headers.get("content-range")).toBe("0-999/1000");
    } finally {
      await db.from("product").delete().like("sku", `${tag}-*`);
    }
  });
});

describe("MAX_ROWS and STATEMENT_TIMEOUT_MS (a server of its own: MAX_ROWS=5, STATEMENT_TIMEOUT_MS=300)", () => {
  let server: TestServer;
  let apikey = "";
  let token = "";
  const call = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}/rest/v1/${path}`, {
      headers: { apikey, authorization: `Bearer ${token}`, ...headers },
    });
    const text = await res.text();
    return { status: res.status, range: res.headers.get("content-range"), body: text ? JSON.parse(text) : null };
  };

  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: "silent", MAX_ROWS: "5", STATEMENT_TIMEOUT_MS: "300" });
    apikey = ((await (await fetch(`${server.url}/api/config`)).json()) as { anonKey: string }).anonKey;
    const res = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { "content-type": "application/json", apikey },
      body: JSON.stringify({ email: OWNER, password: DEMO_PASSWORD }),
    });
    token = ((await res.json()) as { access_token: string }).access_token;
  }, 180_000);
  afterAll(() => server?.close());

  it("caps a larger limit or Range to MAX_ROWS, and Content-Range says what came", async () => {
    const all = await call("product?select=id&order=id&limit=50", { prefer: "count=exact" });
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(5);
    const total = Number(all.range?.split("/")[1]);
    expect(total).toBeGreaterThan(10);
    expect(all.range).toBe(`0-4/${total}`);
    const ranged = await call("product?select=id&order=id", { range: "0-49" });
    expect(ranged.body).toHaveLength(5);
    expect(ranged.range).toBe("0-4/*");
    const later = await call("product?select=id&order=id&offset=5&limit=100");
    expect(later.body).toHaveLength(5);
    expect(later.range).toBe("5-9/*");
    expect((await call("product?select=id")).body).toHaveLength(5);
    expect((await call("product?select=id&limit=2")).body).toHaveLength(2);
  });

  it("sets the statement timeout in every request transaction (both engines accept it)", async () => {
    const db = server.running.database.db;
    const setting = await inRequest(db, { workspaceId: null, userId: null, role: "anon" }, (tx) =>
      tx.execute(sql`select current_setting('statement_timeout') as t`),
    );
    expect(setting.rows[0]).toEqual({ t: "300ms" });
    // Outside a request transaction the setting is not left behind on the connection.
    const after = await db.execute(sql`select current_setting('statement_timeout') as t`);
    expect(after.rows[0]).not.toEqual({ t: "300ms" });
  });

  // PGlite accepts statement_timeout but cannot interrupt a statement (no timer signals in WASM), and has no second
  // connection to hold a lock from: PostgreSQL only.
  it.skipIf(pglite)(
    "stops a statement past STATEMENT_TIMEOUT_MS with 504 and a plain message (PostgreSQL only)",
    async () => {
      const holder = new pg.Client({ connectionString: server.databaseUrl });
      await holder.connect();
      try {
        await holder.query("begin");
        await holder.query("lock table product in access exclusive mode");
        const started = Date.now();
        const res = await call("product?select=id&limit=1");
        expect(Date.now() - started).toBeLessThan(5000);
        expect(res.status).toBe(504);
        expect(res.body).toMatchObject({
          code: "57014",
          message: "The request took too long and was stopped; narrow it with filters or try again",
          details: null,
        });
        await holder.query("rollback");
        expect((await call("product?select=id&limit=1")).status).toBe(200);
      } finally {
        await holder.end();
      }
    },
  );
});
