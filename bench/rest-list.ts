// Issue 5 item 8: the product list page's query, (a) straight through the database driver and (b) through
// GET /rest/v1/product?select=*,category:category(name)&order=name&limit=50&offset=… with count=exact, side by side.
// Generates the data set into a fresh database (never into the repository): on PostgreSQL 100 workspaces with
// 1,000,000 products and companies in total, one workspace (demo) holding 200,000 products; PGlite gets a tenth.
// Run: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/rest-list.ts
//      node --import tsx bench/rest-list.ts            (PGlite)
// BENCH_CONNECTIONS (one number or a list, e.g. 4,32), BENCH_DURATION (s), BENCH_ROUNDS and BENCH_SCALE adjust it.
import { performance } from "node:perf_hooks";
import autocannon, { type Result } from "autocannon";
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { startTestServer } from "../apps/server/test/harness.ts";
import { generateDataset } from "./dataset.ts";
import { signedInHeaders } from "./session.ts";

const CONNECTION_LEVELS = (process.env.BENCH_CONNECTIONS ?? "32").split(",").map(Number);
let CONNECTIONS = CONNECTION_LEVELS[0];
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const PAGES = 200; // offsets cycle through the first 200 pages of 50
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1); // (a) then (b), repeated: a shared machine's noise shows

const server = await startTestServer({ LOG_LEVEL: "silent" });
const onPg = Boolean(server.databaseUrl);
const scale = Number(process.env.BENCH_SCALE ?? (onPg ? 1 : 0.1));
const db = server.running.database.db;

type Figures = { name: string; rps: number; p50: number; p99: number; ok: number; errors: number };

function print(f: Figures): void {
  console.log(
    `${f.name.padEnd(34)} ${f.rps.toFixed(1).padStart(8)} req/s   p50 ${f.p50.toFixed(1).padStart(6)} ms   p99 ${f.p99.toFixed(1).padStart(6)} ms   (${f.ok} ok, ${f.errors} errors)`,
  );
}

// The page, and its total either counted (count(*), what a hand-written list does) or read from the row count
// the triggers keep (what the server does for an unfiltered list).
const LIST = (workspaceId: string, offset: number, kept: boolean) => ({
  page: sql`select p.*, json_build_object('name', c.name) as category from product p
    left join category c on c.workspace_id = p.workspace_id and c.id = p.category_id
    where p.workspace_id = ${workspaceId}::uuid order by p.name, p.id limit 50 offset ${offset}`,
  count: kept
    ? sql`select n from row_count where workspace_id = ${workspaceId}::uuid and table_name = 'product'`
    : sql`select count(*) from product where workspace_id = ${workspaceId}::uuid`,
});

// (a) the same page and count, straight through the driver, CONNECTIONS at a time.
async function direct(workspaceId: string, kept: boolean): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  let i = 0;
  const end = performance.now() + DURATION * 1000;
  let run: (offset: number) => Promise<void>;
  let close = async () => {};
  if (server.databaseUrl) {
    const pool = new pg.Pool({ connectionString: server.databaseUrl, max: CONNECTIONS });
    const dialect = new PgDialect();
    const text = (q: ReturnType<typeof LIST>["page"]) => {
      const { sql: statement, params } = dialect.sqlToQuery(q);
      return pool.query(statement, params as unknown[]);
    };
    run = async (offset) => {
      const q = LIST(workspaceId, offset, kept);
      await Promise.all([text(q.page), text(q.count)]);
    };
    close = () => pool.end();
  } else {
    run = async (offset) => {
      const q = LIST(workspaceId, offset, kept);
      await db.execute(q.page);
      await db.execute(q.count);
    };
  }
  const worker = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      try {
        await run(((i++ * 7) % PAGES) * 50);
        latencies.push(performance.now() - t);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  await close();
  latencies.sort((x, y) => x - y);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return {
    name: kept ? "(a') direct driver, kept count" : "(a) direct driver, count(*)",
    rps: latencies.length / DURATION,
    p50: q(0.5),
    p99: q(0.99),
    ok: latencies.length,
    errors,
  };
}

// (b) the same list through the server.
async function viaServer(): Promise<Figures> {
  const auth = await signedInHeaders(server.url);
  let i = 0;
  const path = (offset: number) =>
    `/rest/v1/product?select=*,category:category(name)&order=name&limit=50&offset=${offset}`;
  const headers = { ...auth, prefer: "count=exact" };
  const check = await fetch(`${server.url}${path(0)}`, { headers });
  if (!check.ok) throw new Error(`list failed: ${check.status} ${await check.text()}`);
  console.log(`server answers content-range ${check.headers.get("content-range")}`);
  const r: Result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [{ method: "GET", headers, setupRequest: (req) => ({ ...req, path: path(((i++ * 7) % PAGES) * 50) }) }],
  });
  return {
    name: "(b) GET /rest/v1/product (server)",
    rps: r["2xx"] / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    ok: r["2xx"],
    errors: r.errors + r.non2xx,
  };
}

try {
  const demo = await generateDataset(db, scale);
  console.log(
    `rest list bench on ${onPg ? "PostgreSQL" : "PGlite"}: ${CONNECTION_LEVELS.join(", ")} connections, ${DURATION} s each, node ${process.version}`,
  );
  for (const level of CONNECTION_LEVELS)
    for (let round = 1; round <= ROUNDS; round++) {
      CONNECTIONS = level;
      console.log(`${CONNECTIONS} connections${ROUNDS > 1 ? `, round ${round} of ${ROUNDS}` : ""}`);
      const a = await direct(demo, false);
      print(a);
      const a2 = await direct(demo, true);
      print(a2);
      const b = await viaServer();
      print(b);
      console.log(
        `(b) reaches ${((b.rps / a.rps) * 100).toFixed(0)}% of (a)'s throughput, ${((b.rps / a2.rps) * 100).toFixed(0)}% of (a')'s`,
      );
    }
  // A closed loop of N connections has a mean latency of N / throughput (Little's law).
  for (const level of CONNECTION_LEVELS) {
    console.log(`at ${level} connections a mean latency under 50 ms needs over ${level / 0.05} req/s`);
  }
} finally {
  await server.close();
}
