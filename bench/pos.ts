// Issue 22 "Point of sale": a sale from the tap (the POST of pos_sale, as the app's outbox sends it with its
// Idempotency-Key) to committed, p50 and p99, at 1 and 8 counters selling at once on PostgreSQL; then the replay of
// 500 sales queued offline (sent one after another in creation order, as the outbox replays them) and of the same
// 500 again under their keys (a second device's replay, or a replay whose answers were lost): the repeats change
// nothing.
// Run: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/pos.ts
// BENCH_COUNTERS (default 1,8), BENCH_DURATION (s per level, default 10), BENCH_QUEUED (default 500).
import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { startTestServer } from "../apps/server/test/harness.ts";
import { signedInHeaders } from "./session.ts";

const LEVELS = (process.env.BENCH_COUNTERS ?? "1,8").split(",").map(Number);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const QUEUED = Number(process.env.BENCH_QUEUED ?? 500);

if (!process.env.TEST_DATABASE_URL) throw new Error("bench/pos.ts measures PostgreSQL: set TEST_DATABASE_URL");
const server = await startTestServer({ LOG_LEVEL: "silent", SEED: "basic" });
const db = server.running.database.db;
const demo = ((await db.execute(sql`select id from workspace where slug = 'demo'`)).rows[0] as { id: string }).id;
const location = Number(
  (
    (await db.execute(sql`select id from location where workspace_id = ${demo}::uuid order by id limit 1`)).rows[0] as {
      id: number;
    }
  ).id,
);
const products = (
  await db.execute(sql`select id, round(price * 1.09, 2)::text as incl from product
    where workspace_id = ${demo}::uuid and active and tax_code = 'SR' order by id limit 40`)
).rows.map((r) => ({ id: Number((r as { id: number }).id), incl: String((r as { incl: string }).incl) }));
// Plenty of stock at the counter's location, so no sale is refused for it.
await db.execute(sql`insert into stock_move (workspace_id, product_id, location_id, qty, unit_cost, doc_type, doc_id)
  select ${demo}::uuid, id, ${location}, 1000000, cost, 'opening', 0 from product
  where workspace_id = ${demo}::uuid and id = any(${`{${products.map((p) => p.id).join(",")}}`}::bigint[])`);

// Three cashiers (one open session each), the counters spread over them.
const cashiers = await Promise.all(
  ["pos@demo.test", "admin@demo.test", "owner@demo.test"].map((e) => signedInHeaders(server.url, e)),
);

async function rpc(auth: Record<string, string>, fn: string, body: unknown, key = randomUUID()) {
  const t = performance.now();
  const res = await fetch(`${server.url}/rest/v1/rpc/${fn}`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json", "idempotency-key": key },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${fn}: ${res.status} ${JSON.stringify(json)}`);
  return { ms: performance.now() - t, json };
}

// Each cashier's own session (a session is its cashier's drawer): the one they have open (the demo's owner has one
// from the seed), else a new one.
const sessions: number[] = [];
for (const auth of cashiers) {
  const res = await fetch(`${server.url}/rest/v1/rpc/pos_session_open`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json", "idempotency-key": randomUUID() },
    body: JSON.stringify({ location_id: location, opening_float: "200" }),
  });
  const json = (await res.json()) as { id?: number; details?: { session_id?: number } };
  const id = res.ok ? json.id : json.details?.session_id;
  if (!id) throw new Error(`pos_session_open: ${res.status} ${JSON.stringify(json)}`);
  sessions.push(Number(id));
}

// A basket of three lines paid by card and cash with change: counter `c`'s own products, so counters contend on the
// number counter and the ledger rather than on one product's row.
function sale(c: number, n: number) {
  const pick = (k: number) => products[(c * 5 + n + k) % products.length];
  const lines = [0, 1, 2].map((k) => ({
    product_id: pick(k).id,
    qty: String(1 + k),
    unit_price_incl_gst: pick(k).incl,
  }));
  return {
    session_id: sessions[c % sessions.length],
    lines,
    payments: [
      { method: "card", amount: "1.00" },
      { method: "cash", amount: "10000" },
    ],
  };
}

const quantile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? 0;
};

console.log(`POS sale, tap to committed (PostgreSQL, ${DURATION}s per level, load ${loadavg()[0].toFixed(2)})`);
for (const counters of LEVELS) {
  const times: number[] = [];
  const end = performance.now() + DURATION * 1000;
  await Promise.all(
    Array.from({ length: counters }, async (_x, c) => {
      let n = 0;
      while (performance.now() < end) {
        const { ms } = await rpc(cashiers[c % cashiers.length], "pos_sale", sale(c, n++));
        times.push(ms);
      }
    }),
  );
  console.log(
    `  ${counters} counter${counters === 1 ? " " : "s"}: ${times.length} sales, ${(times.length / DURATION).toFixed(1)}/s, p50 ${quantile(times, 0.5).toFixed(1)} ms, p99 ${quantile(times, 0.99).toFixed(1)} ms`,
  );
}

// 500 sales queued offline at one counter, replayed in creation order with the keys made at each tap.
const queued = Array.from({ length: QUEUED }, (_x, n) => ({ key: randomUUID(), body: sale(0, n) }));
const before = Number(
  (
    (await db.execute(sql`select count(*)::int as n from pos_order where workspace_id = ${demo}::uuid`)).rows[0] as {
      n: number;
    }
  ).n,
);
let t = performance.now();
for (const q of queued) await rpc(cashiers[0], "pos_sale", q.body, q.key);
const first = performance.now() - t;
t = performance.now();
for (const q of queued) await rpc(cashiers[0], "pos_sale", q.body, q.key);
const again = performance.now() - t;
const after = Number(
  (
    (await db.execute(sql`select count(*)::int as n from pos_order where workspace_id = ${demo}::uuid`)).rows[0] as {
      n: number;
    }
  ).n,
);
console.log(
  `Replay of ${QUEUED} queued sales: ${(first / 1000).toFixed(2)} s (${(first / QUEUED).toFixed(1)} ms each); replayed again under the same keys: ${(again / 1000).toFixed(2)} s; orders made: ${after - before} (expected ${QUEUED})`,
);

await server.close();
process.exit(0);
