// Issue 10's "100 save+submits/s at 4 connections", measured on PostgreSQL, and what the ledger's triggers cost.
// A 20-line invoice through the HTTP API as a client does it (document_save, then document_transition submit) at 1
// and 4 connections, REPEATS times each; then the same with the journal triggers disabled in this bench's own database
// (journal_line's journal_month upserts, journal_entry's lock-date check), so the difference is their cost.
// During every 4-connection run pg_stat_activity is sampled (every 10 ms) for what the bench's backends wait on, and
// a Lock wait is named by the statement that waits (the counter upsert, the journal_line insert whose trigger upserts
// journal_month, the header's `for update`…).
// Run: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/submit.ts
// BENCH_CONNECTIONS (default 1,4), BENCH_DURATION (s per run, default 10), BENCH_REPEATS (default 3),
// BENCH_MODES (default on,off: the triggers enabled, then disabled).
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import pg from "pg";
import { startTestServer } from "../apps/server/test/harness.ts";
import { signedInHeaders } from "./session.ts";

const LEVELS = (process.env.BENCH_CONNECTIONS ?? "1,4").split(",").map(Number);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const MODES = (process.env.BENCH_MODES ?? "on,off").split(",");
const TRIGGERS = [
  ["journal_line", "journal_line_month_insert"],
  ["journal_entry", "journal_entry_locked"],
] as const;

if (!process.env.TEST_DATABASE_URL) throw new Error("bench/submit.ts measures PostgreSQL: set TEST_DATABASE_URL");
const server = await startTestServer({ LOG_LEVEL: "silent", SEED: "basic" });
const admin = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
const db = server.running.database.db;

const quantile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? 0;
};

const demo = ((await db.execute(sql`select id from workspace where slug = 'demo'`)).rows[0] as { id: string }).id;
const customer = Number(
  (
    (
      await db.execute(sql`select id from company where workspace_id = ${demo}::uuid and is_customer and id <> 9
        order by id limit 1`)
    ).rows[0] as { id: number }
  ).id,
);
const products = (
  await db.execute(sql`select id from product where workspace_id = ${demo}::uuid and active order by id limit 20`)
).rows.map((r) => Number((r as { id: number }).id));
const lines = Array.from({ length: 20 }, (_, i) => ({
  product_id: products[i % products.length],
  qty: String(1 + (i % 5)),
  discount_percent: "0",
}));
const auth = await signedInHeaders(server.url, "owner@demo.test");

async function rpc(fn: string, body: unknown): Promise<{ ms: number; json: Record<string, unknown> }> {
  const t = performance.now();
  const res = await fetch(`${server.url}/rest/v1/rpc/${fn}`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const ms = performance.now() - t;
  if (!res.ok) throw new Error(`${fn}: ${res.status} ${text}`);
  return { ms, json: JSON.parse(text) };
}

const summary: string[] = [];

// What the other backends of this database are doing, every 10 ms while `running` is true.
type Waits = Map<string, number>;
async function sampleWaits(running: () => boolean): Promise<{ waits: Waits; samples: number }> {
  const waits: Waits = new Map();
  let samples = 0;
  while (running()) {
    const { rows } = await admin.query(`select coalesce(a.wait_event_type || ':' || a.wait_event, 'CPU') as w,
        case when a.wait_event_type = 'Lock' then ' <- ' || regexp_replace(left(a.query, 60), '\\s+', ' ', 'g')
          || ' | blocked by: ' || coalesce((select regexp_replace(left(b.query, 50), '\\s+', ' ', 'g')
            from pg_stat_activity b where b.pid = (pg_blocking_pids(a.pid))[1]), '?')
          else '' end as q
      from pg_stat_activity a
      where a.datname = current_database() and a.pid <> pg_backend_pid() and a.state = 'active'
        and a.backend_type = 'client backend'`);
    samples++;
    for (const r of rows as Array<{ w: string; q: string }>) waits.set(r.w + r.q, (waits.get(r.w + r.q) ?? 0) + 1);
    await new Promise((r) => setTimeout(r, 10));
  }
  return { waits, samples };
}

type Run = { rate: number; p50: number; p95: number; save50: number; load: number };
async function run(workers: number, watch: boolean): Promise<Run & { waits?: Waits; samples?: number }> {
  const submits: number[] = [];
  const saves: number[] = [];
  const load = loadavg()[0];
  const t0 = performance.now();
  const end = t0 + DURATION * 1000;
  let pairs = 0;
  let done = false;
  const sampler = watch ? sampleWaits(() => !done) : null;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < end) {
        const saved = await rpc("document_save", { type: "invoice", header: { company_id: customer }, lines });
        const submitted = await rpc("document_transition", { type: "invoice", id: saved.json.id, action: "submit" });
        if (submitted.json.status !== "unpaid") throw new Error(`submitted as ${submitted.json.status}`);
        saves.push(saved.ms);
        submits.push(submitted.ms);
        pairs++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  done = true;
  const w = await sampler;
  return {
    rate: pairs / seconds,
    p50: quantile(submits, 0.5),
    p95: quantile(submits, 0.95),
    save50: quantile(saves, 0.5),
    load,
    ...(w ?? {}),
  };
}

// The database's part alone, without Node: the submit's ledger posting as the engine writes it (journal_entry and its
// three lines in one statement, postJournal's), in its own transaction, and the same after taking an invoice number
// from the counter first (as a submit does), at 1 and 4 connections, triggers on and off alternating.
async function directRun(workers: number, counter: boolean): Promise<Run & { waits: Waits; samples: number }> {
  const pool = new pg.Pool({ connectionString: server.databaseUrl, max: workers });
  const latencies: number[] = [];
  const load = loadavg()[0];
  const t0 = performance.now();
  const end = t0 + (DURATION / 2) * 1000;
  let done = false;
  const sampler = sampleWaits(() => !done);
  await Promise.all(
    Array.from({ length: workers }, async () => {
      const c = await pool.connect();
      try {
        while (performance.now() < end) {
          const t = performance.now();
          await c.query("begin");
          if (counter)
            await c.query(
              `insert into number_counter (workspace_id, doc_type, year, next) values ($1, 'bench', 2026, 2)
              on conflict (workspace_id, doc_type, year) do update set next = number_counter.next + 1 returning next - 1`,
              [demo],
            );
          await c.query(
            `with e as (insert into journal_entry (workspace_id, number, entry_date, memo, source_type, source_id)
              values ($1, null, current_date, 'Bench', 'bench', 0) returning id)
            insert into journal_line (workspace_id, entry_id, line_no, account_code, debit, credit, memo)
            select $1, e.id, v.n, v.code, v.debit, v.credit, 'Bench' from e,
              (values (1, '1100', 1090::numeric, 0::numeric), (2, '4000', 0, 1000), (3, '2200', 0, 90)) v(n, code, debit, credit)`,
            [demo],
          );
          await c.query("commit");
          latencies.push(performance.now() - t);
        }
      } finally {
        c.release();
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  done = true;
  const w = await sampler;
  await pool.end();
  return {
    rate: latencies.length / seconds,
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    save50: 0,
    load,
    ...w,
  };
}

async function direct(): Promise<void> {
  for (const counter of [false, true]) {
    for (const level of LEVELS) {
      const results = new Map<string, Run[]>();
      for (let r = 0; r < REPEATS; r++) {
        for (const mode of MODES) {
          await setTriggers(mode === "on");
          const x = await directRun(level, counter);
          results.set(mode, [...(results.get(mode) ?? []), x]);
          const what = counter ? "counter + journal posting, SQL" : "journal posting, SQL";
          console.log(
            `${what} triggers ${mode.padEnd(3)} ${level} conn run ${r + 1}: ${x.rate.toFixed(1).padStart(7)} tx/s   p50 ${x.p50.toFixed(2)} ms p95 ${x.p95.toFixed(2)} ms   load ${x.load.toFixed(1)}`,
          );
          if (level > 1) {
            const top = [...x.waits.entries()].sort((a, b) => b[1] - a[1]).slice(0, 4);
            for (const [wt, n] of top) console.log(`    ${(n / x.samples).toFixed(2).padStart(5)} backends avg  ${wt}`);
          }
        }
      }
      for (const [mode, runs] of results) {
        const rates = runs.map((x) => x.rate).sort((a, b) => a - b);
        const best = runs.reduce((a, b) => (b.rate > a.rate ? b : a));
        summary.push(
          `| ${counter ? "counter + journal posting, SQL" : "journal posting, SQL"} | ${mode} | ${level} | ${rates[rates.length - 1].toFixed(1)} | ${quantile(rates, 0.5).toFixed(1)} | ${best.p50.toFixed(2)} | ${best.p95.toFixed(2)} | ${runs.map((x) => x.load.toFixed(1)).join(", ")} |`,
        );
      }
    }
  }
}

async function setTriggers(on: boolean): Promise<void> {
  for (const [table, trigger] of TRIGGERS)
    await admin.query(`alter table ${table} ${on ? "enable" : "disable"} trigger ${trigger}`);
}

try {
  const version = (await admin.query("select current_setting('server_version') as v")).rows[0].v;
  console.log(`submit bench on PostgreSQL ${version}, node ${process.version}, ${DURATION} s per run, ${REPEATS}×`);
  // A warm-up, so the first run does not pay for the server's first compilations and the pool's connects.
  await run(4, false);
  // The modes alternate run by run (on, off, on, off…), so the machine's load drifting over minutes falls on both.
  const results = new Map<string, Run[]>();
  for (const level of LEVELS) {
    for (let r = 0; r < REPEATS; r++) {
      for (const mode of MODES) {
        await setTriggers(mode === "on");
        const x = await run(level, level > 1);
        const key = `${mode}|${level}`;
        results.set(key, [...(results.get(key) ?? []), x]);
        console.log(
          `triggers ${mode.padEnd(3)} ${level} conn run ${r + 1}: ${x.rate.toFixed(1).padStart(6)} pairs/s   submit p50 ${x.p50.toFixed(1)} ms p95 ${x.p95.toFixed(1)} ms   save p50 ${x.save50.toFixed(1)} ms   load ${x.load.toFixed(1)}`,
        );
        if (x.waits && x.samples) {
          const top = [...x.waits.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8);
          for (const [w, n] of top) console.log(`    ${(n / x.samples).toFixed(2).padStart(5)} backends avg  ${w}`);
        }
      }
    }
  }
  for (const [key, runs] of results) {
    const [mode, level] = key.split("|");
    const rates = runs.map((x) => x.rate).sort((a, b) => a - b);
    const best = runs.reduce((a, b) => (b.rate > a.rate ? b : a));
    summary.push(
      `| API save+submit | ${mode} | ${level} | ${rates[rates.length - 1].toFixed(1)} | ${quantile(rates, 0.5).toFixed(1)} | ${best.p50.toFixed(1)} | ${best.p95.toFixed(1)} | ${runs.map((x) => x.load.toFixed(1)).join(", ")} |`,
    );
  }
  await direct();
  console.log(
    "\n| what | journal triggers | conn | best /s | median /s | p50 ms (best run) | p95 ms | load avg |\n|---|---|---|---|---|---|---|---|",
  );
  for (const s of summary) console.log(s);
  // The books still balance with the triggers on: journal_month equals journal_line per account (checked only when
  // the triggers ran for every submit, i.e. the "on" mode alone).
  if (MODES.length === 1 && MODES[0] === "on") {
    const { rows } = await admin.query(`select count(*)::int as n from (
        select account_code, sum(debit) d, sum(credit) c from journal_line group by 1
        except select account_code, sum(debit), sum(credit) from journal_month group by 1) x`);
    console.log(`accounts whose journal_month differs from journal_line: ${rows[0].n}`);
  }
} finally {
  await setTriggers(true).catch(() => undefined);
  await admin.end();
  await server.close();
}
