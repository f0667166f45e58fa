import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/platform/db/database.ts";
import { startTestServer, type TestServer } from "./harness.ts";
import { api, useServer } from "./http.ts";
import { restFetch, tokenFor } from "./rest-helpers.ts";

// Issue 25 §1, §3, §4 without nginx: readiness apart from liveness and a draining instance, /metrics kept from
// tenants, and (on PostgreSQL) reads routed to a replica with read-your-writes. The replica here is a second pool
// on the same database — it answers pg_last_wal_replay_lsn() null, as a primary does, so the router trusts it:
// what is tested is the routing and the write positions, not replication (npm run cluster and
// bench/cluster-faults.ts run a real one). One server for the file, drained only by the last test.

const TOKEN = "metrics-token-for-the-operator-0123";
const postgres = Boolean(process.env.TEST_DATABASE_URL);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ INSTANCE_ID: "api-test-1", METRICS_TOKEN: TOKEN });
  useServer(server.url);
});
afterAll(async () => {
  await server?.close();
});

describe("health and readiness", () => {
  it("/api/health names the instance; /api/ready says it takes traffic", async () => {
    const health = await api("/api/health");
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: "ok", instance: "api-test-1" });
    const ready = await api("/api/ready");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: "ready", instance: "api-test-1" });
  });

  it("every answer carries the request id it was given (nginx's X-Request-Id)", async () => {
    const res = await api("/api/health", { headers: { "x-request-id": "nginx-abc123" } });
    expect(res.headers.get("x-request-id")).toBe("nginx-abc123");
  });
});

describe("/metrics", () => {
  it("refuses a tenant's token and a request a proxy forwarded", async () => {
    const tenant = await api("/metrics", { headers: { authorization: `Bearer ${await tokenFor("owner@demo.test")}` } });
    expect(tenant.status).toBe(403);
    expect(tenant.body).toMatchObject({ code: "forbidden" });
    expect(String(tenant.body)).not.toContain("workmetrics_http");
    const forwarded = await api("/metrics", { headers: { "x-forwarded-for": "203.0.113.7" } });
    expect(forwarded.status).toBe(403);
    const wrong = await api("/metrics", { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(403);
  });

  it("answers the operator's token in Prometheus's format: requests by route, pools, jobs, sockets", async () => {
    await restFetch("owner@demo.test", "company?select=id&limit=1");
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toMatch(
      /workmetrics_http_requests_total\{method="GET",route="\/rest\/v1\/:resource",status="200",instance="api-test-1"\} \d+/,
    );
    expect(text).toContain("workmetrics_http_request_duration_seconds_bucket");
    expect(text).toMatch(/workmetrics_jobs\{status="queued",instance="api-test-1"\} \d+/);
    expect(text).toContain("workmetrics_jobs_oldest_due_seconds");
    expect(text).toMatch(/workmetrics_realtime_sockets\{instance="api-test-1"\} \d+/);
    if (postgres) expect(text).toMatch(/workmetrics_db_pool_connections\{pool="primary",instance="api-test-1"\} \d+/);
  });
});

describe.skipIf(!postgres)("reads on a replica with read-your-writes (PostgreSQL)", () => {
  let close: (() => Promise<void>) | undefined;
  let before: Pick<typeof server.running.database, "replica" | "reads"> | undefined;
  beforeAll(async () => {
    const database = server.running.database;
    before = { replica: database.replica, reads: database.reads };
    const url = server.databaseUrl as string;
    const other = await openDatabase({ databaseUrl: url, replicaUrl: url, dataDir: "/tmp" });
    Object.assign(database, { replica: other.replica, reads: other.reads });
    close = () => other.close();
  });
  afterAll(async () => {
    Object.assign(server.running.database, before);
    await close?.();
  });

  it("a list is read from the replica; a write answers its WAL position, and the reads after it carry it", async () => {
    const list = await restFetch("owner@demo.test", "company?select=id&limit=1");
    expect(list.status).toBe(200);
    expect(list.headers.get("x-read-from")).toBe("replica");

    const name = `Replica reader ${Date.now()}`;
    const made = await restFetch("owner@demo.test", "company", {
      method: "POST",
      body: JSON.stringify({ name, is_customer: true }),
      headers: { prefer: "return=representation" },
    });
    expect(made.status).toBe(201);
    const lsn = made.headers.get("x-wal-lsn");
    expect(lsn).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    expect(made.headers.get("set-cookie")).toContain(`wm-read-lsn=${lsn}`);

    // The replica (here: the primary itself) has it, so the author's read goes there and finds the row.
    const after = await restFetch("owner@demo.test", `company?select=name&name=eq.${encodeURIComponent(name)}`, {
      headers: { "x-read-lsn": lsn as string },
    });
    expect(after.headers.get("x-read-from")).toBe("replica");
    expect(after.body).toEqual([{ name }]);
  });

  it("a read-only command reads the replica and keeps no write position; a command that writes does", async () => {
    const token = await tokenFor("owner@demo.test");
    const res = await api("/rest/v1/rpc/dashboard_summary", {
      method: "POST",
      json: {},
      headers: { authorization: `Bearer ${token}`, "idempotency-key": `dash-${Date.now()}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-read-from")).toBe("replica");
    expect(res.headers.get("x-wal-lsn")).toBeNull();
  });

  it("a replica that cannot be reached sends the read to the primary, which answers it", async () => {
    const database = server.running.database;
    const saved = { replica: database.replica, reads: database.reads };
    const broken = await openDatabase({
      databaseUrl: server.databaseUrl as string,
      replicaUrl: "postgres://postgres@127.0.0.1:1/nowhere",
      dataDir: "/tmp",
    });
    Object.assign(database, { replica: broken.replica, reads: broken.reads });
    try {
      const list = await restFetch("owner@demo.test", "company?select=id&limit=1");
      expect(list.status).toBe(200);
      expect(list.headers.get("x-read-from")).toBe("primary");
    } finally {
      Object.assign(database, saved);
      await broken.close();
    }
  });
});

// Issue 25 "capacity on paper": the schema is ready for Citus to distribute every tenant table by workspace_id — it
// is the first column of each one's primary key and of each foreign key between tenant tables, so a workspace's
// rows and their references co-locate on one shard.
describe("the catalog is ready to shard by workspace", () => {
  it("workspace_id is first in every tenant table's primary key and in its foreign keys to tenant tables", async () => {
    const res = await server.running.database.db.execute(sql`
      with tenant as (
        select c.oid, c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p')
          and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'workspace_id' and not a.attisdropped)
      )
      select t.relname as "table", k.conname as "constraint", k.contype as kind,
             (select a.attname from pg_attribute a where a.attrelid = k.conrelid and a.attnum = k.conkey[1]) as first
      from tenant t join pg_constraint k on k.conrelid = t.oid
      where k.contype = 'p' or (k.contype = 'f' and k.confrelid in (select oid from tenant))
      order by 1, 2`);
    const rows = res.rows as Array<{ table: string; constraint: string; kind: string; first: string }>;
    expect(rows.filter((r) => r.kind === "p").length).toBeGreaterThan(20);
    // The known exceptions, each with its place under Citus (README "Running in production"): the job queue holds
    // platform jobs with no workspace (a table local to the coordinator), and a marketplace thread is between two
    // workspaces (distributed by the thread's own id).
    const EXCEPTIONS = ["job.job_pkey", "marketplace_message.marketplace_message_thread_fk"];
    const off = rows.filter((r) => r.first !== "workspace_id").map((r) => `${r.table}.${r.constraint}`);
    expect(off.filter((c) => !EXCEPTIONS.includes(c))).toEqual([]);
  });
});

describe("a draining instance (SIGTERM)", () => {
  it("answers /api/ready 503 at once while it still serves what it is sent", async () => {
    server.running.app.lifecycle.draining = true;
    const ready = await api("/api/ready");
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ code: "draining", instance: "api-test-1" });
    expect((await api("/api/health")).status).toBe(200); // liveness only: it is not dead, it is leaving
  });

  it("finishes a request in flight when it stops, and then no longer listens", async () => {
    // Stopped once the request has reached the server (its handler is running), not while it is on the way.
    const arrived = new Promise<void>((resolve) => server.running.app.server.once("request", () => resolve()));
    const pending = fetch(`${server.url}/api/health`).then(async (r) => ({ status: r.status, body: await r.json() }));
    await arrived;
    const stopped = server.running.stop();
    const res = await pending;
    expect(res).toMatchObject({ status: 200, body: { instance: "api-test-1" } });
    await stopped;
    // A new connection is refused: nginx tries the next instance.
    expect(server.running.app.server.listening).toBe(false);
  });
});
