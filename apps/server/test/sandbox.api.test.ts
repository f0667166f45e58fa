import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sweepSandboxes } from "../src/modules/sandbox/sandbox.ts";
import { api } from "./http.ts";
import { ownServer } from "./own-server-helpers.ts";
import { tokenFor } from "./rest-helpers.ts";

// Issue 21 §3 (DESIGN §2.3.2 "Try-it sandbox"): GET /demo makes a copy of the demo data as a Premium workspace of its
// own, signs the visitor in as its owner on its own host, says it is a sandbox, and is removed — every row, account
// and file of it — once its 24 hours have passed, leaving every other workspace as it was.

const own = ownServer({ SEED: "basic" }, 300_000);

type Made = { slug: string; token: string; workspaceId: string };

async function makeSandbox(): Promise<Made> {
  const first = await api("/demo", { headers: { accept: "text/html" } });
  expect(first.status).toBe(303);
  const verify = first.headers.get("location")!;
  expect(verify).toMatch(/^\/auth\/v1\/verify\?token=[^&]+&type=magiclink&redirect_to=/);
  const landing = await api(verify);
  expect(landing.status).toBe(303);
  const to = new URL(landing.headers.get("location")!);
  // Its own host, the next page named, the session in the fragment (GoTrue's implicit flow).
  expect(to.hostname).toMatch(/^try-[a-z0-9]{8}\.localhost$/);
  expect(`${to.pathname}${to.search}`).toBe("/auth/success?next=/dashboard");
  const token = new URLSearchParams(to.hash.slice(1)).get("access_token")!;
  expect(token).toBeTruthy();
  // The link signs in once.
  expect((await api(verify)).headers.get("location") ?? "").not.toContain("access_token");
  const slug = to.hostname.split(".")[0];
  const ws = (await own.db.execute(sql`select id from workspace where slug = ${slug}`)).rows[0] as { id: string };
  return { slug, token, workspaceId: ws.id };
}

async function rowsOf(workspaceId: string): Promise<number> {
  const tables = (
    await own.db.execute(sql`select c.relname as name from pg_attribute a join pg_class c on c.oid = a.attrelid
      join pg_namespace n on n.oid = c.relnamespace
      where a.attname = 'workspace_id' and c.relkind = 'r' and n.nspname = 'public' and not a.attisdropped`)
  ).rows as Array<{ name: string }>;
  let n = 0;
  for (const t of tables) {
    const r = await own.db.execute(
      sql`select count(*)::int as n from ${sql.identifier(t.name)} where workspace_id = ${workspaceId}::uuid`,
    );
    n += (r.rows[0] as { n: number }).n;
  }
  return n;
}

async function platformFigures(): Promise<unknown> {
  const res = await api("/api/platform/summary", {
    headers: { authorization: `Bearer ${await tokenFor("platform@workmetrics.test")}` },
  });
  expect(res.status).toBe(200);
  return { tiers: res.body.tiers, signups: res.body.signups };
}

describe("the try-it sandbox", () => {
  let made: Made;

  it("GET /demo makes a Premium copy of the demo and signs the visitor in as its owner", async () => {
    const figures = await platformFigures();
    made = await makeSandbox();
    // Nobody's company: the operator's figures (workspaces by plan, sign-ups) do not count it.
    expect(await platformFigures()).toEqual(figures);
    const me = await api("/api/auth/user", { headers: { authorization: `Bearer ${made.token}` } });
    expect(me.status).toBe(200);
    const profile = me.body.profile;
    expect(profile.workspace.slug).toBe(made.slug);
    expect(profile.workspace.tier.slug).toBe("premium");
    expect(profile.role_id).toBe(31); // the owner
    const hours = (Date.parse(profile.workspace.sandbox_expires_at) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    // A year of trading, as the demo has it: invoices, and the owner reads them.
    const invoices = await api("/rest/v1/invoice?select=id,number&limit=5", {
      headers: { authorization: `Bearer ${made.token}` },
    });
    expect(invoices.status).toBe(200);
    expect(invoices.body.length).toBe(5);
  }, 120_000);

  it("the sweep removes a sandbox past its time entirely, and nothing else", async () => {
    const demoBefore = await rowsOf(own.ws);
    const members = (
      await own.db.execute(sql`select id from "user" where workspace_id = ${made.workspaceId}::uuid`)
    ).rows.map((r) => (r as { id: string }).id);
    expect(members.length).toBe(11);
    expect(await rowsOf(made.workspaceId)).toBeGreaterThan(1000);
    // Not yet due: kept.
    expect(await sweepSandboxes(own.db)).toBe(0);
    await own.db.execute(
      sql`update workspace set sandbox_expires_at = now() - interval '1 minute' where id = ${made.workspaceId}::uuid`,
    );
    const filesRemoved: string[] = [];
    expect(await sweepSandboxes(own.db, async (id) => void filesRemoved.push(id))).toBe(1);
    expect(filesRemoved).toEqual([made.workspaceId]);
    expect(await rowsOf(made.workspaceId)).toBe(0);
    expect((await own.db.execute(sql`select 1 from workspace where id = ${made.workspaceId}::uuid`)).rows).toEqual([]);
    const accounts = await own.db.execute(
      sql`select count(*)::int as n from auth_user where id = any(${`{${members.join(",")}}`}::uuid[])`,
    );
    expect((accounts.rows[0] as { n: number }).n).toBe(0);
    // The old session is refused now.
    expect((await api("/api/auth/user", { headers: { authorization: `Bearer ${made.token}` } })).status).toBe(401);
    expect(await rowsOf(own.ws)).toBe(demoBefore);
  }, 120_000);

  it("too many sandboxes from one address are refused in words, and none is made", async () => {
    const key = (await own.db.execute(sql`select key from auth_rate_limit where key like 'sandbox:%' limit 1`))
      .rows[0] as { key: string };
    await own.db.execute(sql`update auth_rate_limit set hits = 5 where key = ${key.key}`);
    const before = await own.db.execute(sql`select count(*)::int as n from workspace`);
    const refused = await api("/demo", { headers: { accept: "text/html" } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBeTruthy();
    expect(String(refused.body)).toContain("Too many sandboxes from your network.");
    expect(String(refused.body)).toContain('<a href="/book-a-demo">');
    const json = await api("/demo");
    expect(json.status).toBe(429);
    expect(json.body.message).toMatch(/^Too many sandboxes from your network/);
    expect((await own.db.execute(sql`select count(*)::int as n from workspace`)).rows).toEqual(before.rows);
  });
});
