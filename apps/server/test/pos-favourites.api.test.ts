import { randomUUID } from "node:crypto";
import { COMMANDS } from "@workmetrics/domain/commands";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { inRequest } from "../src/platform/db/database.ts";
import { ownServer } from "./own-server-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 22 "Point of sale": the favourites grid of the sale screen, chosen by an owner or admin and read by the
// counter. Set in an order and read back in it; replaced whole; a cashier (POS staff), a salesperson and a Pro
// workspace refused with nothing changed; a duplicate, another workspace's product or a retired one refused whole;
// another workspace never sees the list (row-level security).

const own = ownServer();
const ADMIN = "admin@demo.test";
const OWNER = "owner@demo.test";
const POS = "pos@demo.test";
const SALES = "sales@demo.test";
const PRO_ADMIN = "admin@pro.test";

const send = (email: string, args: unknown) =>
  restFetch(email, "rpc/pos_favourites_set", {
    method: "POST",
    body: JSON.stringify(args),
    headers: { "idempotency-key": randomUUID() },
  });
const read = async (email: string) => {
  const res = await restFetch(email, "pos_favourite?select=product_id,position&order=position");
  expect(res.status, res.text).toBe(200);
  return (res.body as Array<{ product_id: number | string }>).map((r) => Number(r.product_id));
};
const message = (res: { body: unknown }) => (res.body as { message: string }).message;

let products: number[] = [];
let proProduct = 0;

beforeAll(async () => {
  const res = await restFetch(ADMIN, "product?select=id&active=is.true&order=id&limit=5");
  products = (res.body as Array<{ id: number }>).map((p) => Number(p.id));
  expect(products).toHaveLength(5);
  const pro = await restFetch(PRO_ADMIN, "product?select=id&order=id&limit=1");
  proProduct = Number((pro.body as Array<{ id: number }>)[0].id);
}, 120_000);

describe("POS favourites", () => {
  it("an admin sets them in an order the counter reads back", async () => {
    const chosen = [products[3], products[0], products[2]];
    const res = await send(ADMIN, { product_ids: chosen });
    expect(res.status, res.text).toBe(200);
    expect(COMMANDS.pos_favourites_set.result.safeParse(res.body).error).toBeUndefined();
    expect(await read(POS)).toEqual(chosen);
    // Reordered and changed by the owner: the new list replaces the old one whole.
    const next = [products[0], products[4], products[3]];
    expect((await send(OWNER, { product_ids: next })).status).toBe(200);
    expect(await read(POS)).toEqual(next);
    expect(await read(ADMIN)).toEqual(next);
  });

  it("refuses a cashier and a salesperson, changing nothing", async () => {
    const before = await read(POS);
    for (const email of [POS, SALES]) {
      const res = await send(email, { product_ids: [products[1]] });
      expect(res.status, email).toBe(403);
      expect(message(res)).toMatch(/POS favourites/);
    }
    expect(await read(POS)).toEqual(before);
  });

  it("refuses bad lists whole: a duplicate, another workspace's product, a retired one, too many", async () => {
    const before = await read(ADMIN);
    const twice = await send(ADMIN, { product_ids: [products[1], products[1]] });
    expect(twice.status).toBe(422);
    expect(message(twice)).toMatch(/twice/);
    const foreign = await send(ADMIN, { product_ids: [products[1], proProduct] });
    expect(foreign.status).toBe(422);
    expect(message(foreign)).toMatch(new RegExp(`no product ${proProduct}`));
    await own.q(sql`update product set active = false where id = ${products[2]}`);
    try {
      const retired = await send(ADMIN, { product_ids: [products[1], products[2]] });
      expect(retired.status).toBe(422);
      expect(message(retired)).toMatch(/no longer sold/);
    } finally {
      await own.q(sql`update product set active = true where id = ${products[2]}`);
    }
    const many = await send(ADMIN, { product_ids: Array.from({ length: 25 }, (_, i) => i + 1) });
    expect(many.status).toBe(422);
    expect(await read(ADMIN)).toEqual(before);
  });

  it("keeps the list to its workspace", async () => {
    const mine = await own.q<{ product_id: number }>(sql`select product_id from pos_favourite`);
    expect(mine.length).toBeGreaterThan(0);
    const proWs = (
      (
        await own.db.execute(sql`select w.id::text as id from workspace w join "user" u on u.workspace_id = w.id
        where u.email = ${PRO_ADMIN}`)
      ).rows[0] as { id: string }
    ).id;
    const seen = await inRequest(
      own.db,
      { workspaceId: proWs, userId: null, role: "authenticated" },
      async (tx) => (await tx.execute(sql`select product_id from pos_favourite`)).rows,
    );
    expect(seen).toEqual([]);
    // A Pro workspace has no point of sale: its admin neither sets nor reads favourites.
    expect((await send(PRO_ADMIN, { product_ids: [proProduct] })).status).toBe(403);
    expect((await restFetch(PRO_ADMIN, "pos_favourite?select=product_id")).status).toBe(403);
  });

  it("clears them with an empty list (the counter falls back to the catalogue)", async () => {
    expect((await send(ADMIN, { product_ids: [] })).status).toBe(200);
    expect(await read(POS)).toEqual([]);
  });
});
