import { describe, expect, it } from "vitest";
import { restFetch } from "./rest-helpers.ts";

// Issue 5 item 8: an unfiltered count=exact list answers from the per-workspace row count (kept by triggers in the
// writing transaction); a filtered one counts. Both must always agree with the rows.

const ADMIN = "admin@demo.test";
const OTHER = "admin@pro.test";

// The total of Content-Range: unfiltered (from the kept count) and with an always-true filter (counted).
async function totals(email: string, resource = "brand"): Promise<{ kept: number; counted: number }> {
  const prefer = { prefer: "count=exact" };
  const kept = await restFetch(email, `${resource}?select=id&limit=1`, { headers: prefer });
  const counted = await restFetch(email, `${resource}?select=id&limit=1&id=gte.0`, { headers: prefer });
  expect(kept.status).toBe(200);
  expect(counted.status).toBe(200);
  const total = (h: Headers) => Number(h.get("content-range")?.split("/")[1]);
  return { kept: total(kept.headers), counted: total(counted.headers) };
}

const post = (email: string, path: string, body: unknown, prefer = "return=representation") =>
  restFetch(email, path, { method: "POST", body: JSON.stringify(body), headers: { prefer } });

describe("exact counts from kept row counts", () => {
  it("follows inserts, upserts, deletes and rolled-back writes, and never another workspace's writes", async () => {
    const start = await totals(ADMIN);
    expect(start.kept).toBe(start.counted);
    const other = await totals(OTHER);
    const tag = `rc-${Date.now()}`;

    const created = await post(
      ADMIN,
      "brand",
      [1, 2, 3].map((i) => ({ name: `${tag} ${i}` })),
    );
    expect(created.status).toBe(201);
    const ids = (created.body as Array<{ id: number }>).map((r) => r.id);
    expect(await totals(ADMIN)).toEqual({ kept: start.kept + 3, counted: start.kept + 3 });
    expect(await totals(OTHER)).toEqual(other);

    // A rolled-back insert (Prefer: tx=rollback) leaves the count as it was.
    const rolled = await post(ADMIN, "brand", { name: `${tag} rolled back` }, "return=representation,tx=rollback");
    expect(rolled.status).toBe(201);
    expect((await totals(ADMIN)).kept).toBe(start.kept + 3);

    // A failing statement (one bad row of three) inserts nothing and counts nothing.
    const bad = await post(ADMIN, "brand", [{ name: `${tag} a` }, { name: "" }, { name: `${tag} b` }]);
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect((await totals(ADMIN)).kept).toBe(start.kept + 3);

    const deleted = await restFetch(ADMIN, `brand?id=in.(${ids.slice(0, 2).join(",")})`, {
      method: "DELETE",
      headers: { prefer: "return=representation" },
    });
    expect(deleted.status).toBe(200);
    expect(await totals(ADMIN)).toEqual({ kept: start.kept + 1, counted: start.kept + 1 });

    await restFetch(ADMIN, `brand?id=eq.${ids[2]}`, { method: "DELETE" });
    expect(await totals(ADMIN)).toEqual(start);
  });

  it("stays exact under concurrent inserts into one workspace", async () => {
    const start = await totals(ADMIN, "location");
    const tag = `rc-par-${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post(ADMIN, "location", { code: `${tag}-${i}`, name: `Store ${i}` })),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 201));
    expect(await totals(ADMIN, "location")).toEqual({ kept: start.kept + 12, counted: start.kept + 12 });
    await restFetch(ADMIN, `location?code=like.${tag}*`, { method: "DELETE" });
    expect(await totals(ADMIN, "location")).toEqual(start);
  });

  it("the dashboard's figures equal the lists' counted totals", async () => {
    const res = await restFetch(ADMIN, "rpc/dashboard_summary", { method: "POST", body: "{}" });
    expect(res.status).toBe(200);
    const { counts } = res.body as { counts: Record<string, number> };
    for (const resource of ["product", "company", "brand", "location"]) {
      expect({ resource, count: counts[resource] }).toEqual({
        resource,
        count: (await totals(ADMIN, resource)).counted,
      });
    }
  });

  it("a filtered or searched list still counts its own rows", async () => {
    const all = await restFetch(ADMIN, "product?select=id&limit=1", { headers: { prefer: "count=exact" } });
    const some = await restFetch(ADMIN, "product?select=id&limit=1&price=gt.100", {
      headers: { prefer: "count=exact" },
    });
    const total = (h: Headers) => Number(h.get("content-range")?.split("/")[1]);
    expect(total(some.headers)).toBeGreaterThan(0);
    expect(total(some.headers)).toBeLessThan(total(all.headers));
  });
});
