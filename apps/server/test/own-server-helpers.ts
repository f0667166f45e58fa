import { MB, storageFullMessage } from "@workmetrics/domain";
import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { type Db, inRequest } from "../src/platform/db/database.ts";
import { startTestServer, type TestServer } from "./harness.ts";
import { useServer } from "./http.ts";
import { restFetch } from "./rest-helpers.ts";

// For the API test files that start a server of their own (to read rows, or to change the demo workspace freely).

export type OwnServer = {
  server: TestServer;
  db: Db;
  // The demo workspace's id.
  ws: string;
  // The rows of `query` run as the demo workspace, row-level security applying.
  q: <T>(query: SQL) => Promise<T[]>;
};

// Starts the server before the file's tests (filling in the fields) and closes it after them. Call it before the
// file's own beforeAll, which then runs second.
export function ownServer(env: Record<string, string> = {}, timeout = 120_000): OwnServer {
  const own = {
    q: async <T>(query: SQL): Promise<T[]> =>
      inRequest(
        own.db,
        { workspaceId: own.ws, userId: null, role: "authenticated" },
        async (tx) => (await tx.execute(query)).rows as T[],
      ),
  } as OwnServer;
  beforeAll(async () => {
    own.server = await startTestServer({ LOG_LEVEL: "silent", ...env });
    useServer(own.server.url);
    own.db = own.server.running.database.db;
    own.ws = ((await own.db.execute(sql`select id from workspace where slug = 'demo'`)).rows[0] as { id: string }).id;
  }, timeout);
  afterAll(() => own.server?.close());
  return own;
}

// The caller's workspace's locations, id by code (WH-TUAS, WH-UBI, …).
export async function locationsByCode(email: string): Promise<Record<string, number>> {
  const res = await restFetch(email, "location?select=id,code");
  return Object.fromEntries((res.body as Array<{ id: number; code: string }>).map((l) => [l.code, l.id]));
}

// Opening stock: `qty` of each product at the location, at the product's cost.
export async function openingStock(own: OwnServer, items: Array<{ id: number }>, location: number, qty: number) {
  await own.q(sql`insert into stock_move (workspace_id, product_id, location_id, qty, unit_cost, doc_type, doc_id)
    select ${own.ws}::uuid, p.id, ${location}, ${qty}::numeric, p.cost, 'opening', 0 from product p
    where p.workspace_id = ${own.ws}::uuid and p.id = any(${`{${items.map((p) => p.id).join(",")}}`}::bigint[])`);
}

// The demo workspace's tier given a storage quota that leaves less than 1 MB free (its files' sizes rounded up to
// whole MB), for a test of an upload that must not fit; `message` is the refusal's, `restore` puts the quota back.
export async function squeezeQuota(own: OwnServer): Promise<{ message: string; restore(): Promise<void> }> {
  const res = await own.db.execute(sql`select t.id, t.title, t.storage_quota_mb as mb,
      (select coalesce(sum(o.size), 0) from storage_object o where o.workspace_id = w.id)::bigint::text as used
    from workspace w join tier t on t.id = w.tier_id where w.id = ${own.ws}::uuid`);
  const tier = res.rows[0] as { id: number; title: string; mb: number; used: string };
  const mb = Math.max(1, Math.ceil(Number(tier.used) / MB));
  await own.db.execute(sql`update tier set storage_quota_mb = ${mb} where id = ${tier.id}`);
  return {
    message: storageFullMessage(mb * MB, tier.title),
    restore: async () => {
      await own.db.execute(sql`update tier set storage_quota_mb = ${tier.mb} where id = ${tier.id}`);
    },
  };
}
