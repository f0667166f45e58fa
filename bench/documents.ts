// Issue 10 §5: the document engine at volume, each figure beside the same operation as hand-written SQL on the same
// data, so the engine's cost shows as a ratio.
//  1. Submit of a 20-line invoice (number, due date, outstanding, journal entry, audit row) through the HTTP API as a
//     client does it — document_save, then document_transition submit — at 1, 4 and 16 connections; beside it the
//     submit as one hand-written transaction (lock, counter, update, entry and lines, audit row) on drafts made by SQL.
//     And a 20-line delivery order's submit (number, stock moves out with the no-negative check, COGS entry, the
//     order's delivered quantities and status), which is where stock moves: a direct invoice moves none.
//  2. The invoice list page's query over 200,000 invoices (GET /rest/v1/invoice?select=*,company:company(name)
//     &order=doc_date.desc,id.desc&limit=50&offset=…, count=exact), beside the product list's over 200,000 products
//     and beside the same page and count through the driver.
//  3. AR ageing (POST /rest/v1/rpc/report {name: ar_ageing}) over 100,000 open invoices, beside its SQL run directly.
// The data is the bench's own, bulk-loaded with generate_series into a fresh database, never the product's.
// Run: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/documents.ts
//      node --import tsx bench/documents.ts            (PGlite)
// BENCH_CONNECTIONS (default 1,4,16), BENCH_DURATION (s per level, default 10), BENCH_SCALE (of the 200,000),
// BENCH_PHASES (default submit,pairs,direct,delivery,lists).
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import type { Tx } from "../apps/server/src/platform/db/database.ts";
import { startTestServer } from "../apps/server/test/harness.ts";
import { signedInHeaders } from "./session.ts";

const LEVELS = (process.env.BENCH_CONNECTIONS ?? "1,4,16").split(",").map(Number);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const LIST_ROWS = Math.round(200_000 * SCALE);
// BENCH_PHASES: some of submit, pairs, direct, delivery, lists (default all).
const PHASES = (process.env.BENCH_PHASES ?? "submit,pairs,direct,delivery,lists").split(",");
const phase = (name: string) => PHASES.includes(name);

const server = await startTestServer({ LOG_LEVEL: "silent", SEED: "basic" });
const onPg = Boolean(server.databaseUrl);
const db = server.running.database.db;
const pool = server.databaseUrl ? new pg.Pool({ connectionString: server.databaseUrl, max: 20 }) : null;
const dialect = new PgDialect();

const one = async <T>(q: SQL): Promise<T> => (await db.execute(q)).rows[0] as T;

// ---- measuring ---------------------------------------------------------------------------------------------------

type Figures = { name: string; n: number; seconds: number; p50: number; p95: number };
const quantile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? 0;
};
const rows: string[][] = [];
function print(f: Figures, extra = ""): void {
  const rate = f.n / f.seconds;
  console.log(
    `${f.name.padEnd(58)} ${rate.toFixed(1).padStart(8)}/s   p50 ${f.p50.toFixed(1).padStart(7)} ms   p95 ${f.p95.toFixed(1).padStart(7)} ms   (n ${f.n})${extra}`,
  );
  rows.push([f.name, rate.toFixed(1), f.p50.toFixed(1), f.p95.toFixed(1)]);
}

// `workers` loops, each running `op` back to back for DURATION seconds (and at most `count` times in all).
async function closedLoop(
  name: string,
  workers: number,
  op: (worker: number, i: number) => Promise<number | undefined>,
  count?: number,
): Promise<Figures> {
  const latencies: number[] = [];
  let started = 0;
  const t0 = performance.now();
  const end = t0 + DURATION * 1000;
  const worker = async (w: number) => {
    for (;;) {
      if (performance.now() >= end || (count !== undefined && started >= count)) return;
      const i = started++;
      const t = performance.now();
      const own = await op(w, i);
      latencies.push(own ?? performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  return {
    name,
    n: latencies.length,
    seconds: (performance.now() - t0) / 1000,
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
  };
}

// One transaction through the driver: on PostgreSQL a pooled connection, on PGlite the one database.
async function directTx(fn: (q: (s: SQL) => Promise<Array<Record<string, unknown>>>) => Promise<void>) {
  if (pool) {
    const client = await pool.connect();
    try {
      await client.query("begin");
      await fn(async (s) => {
        const { sql: text, params } = dialect.sqlToQuery(s);
        return (await client.query(text, params as unknown[])).rows;
      });
      await client.query("commit");
    } catch (err) {
      await client.query("rollback");
      throw err;
    } finally {
      client.release();
    }
    return;
  }
  await db.transaction(async (tx: Tx) => {
    await fn(async (s) => (await tx.execute(s)).rows as Array<Record<string, unknown>>);
  });
}

// ---- the data ----------------------------------------------------------------------------------------------------

const demo = (await one<{ id: string }>(sql`select id from workspace where slug = 'demo'`)).id;
const customer = (
  await one<{ id: number }>(sql`select id from company where workspace_id = ${demo}::uuid and is_customer
    and id <> 9 order by id limit 1`)
).id;
// 20 products per connection (up to 16): deliveries of the same product queue on its row lock by design (no
// negative stock), which would measure the queue rather than the engine.
const products = (
  await db.execute(sql`select id, cost::text as cost from product where workspace_id = ${demo}::uuid and active
    and is_stock_tracked and cost > 0 order by id limit 320`)
).rows as Array<{ id: number; cost: string }>;
const tuas = (
  await one<{ id: number }>(sql`select id from location where workspace_id = ${demo}::uuid order by id limit 1`)
).id;
const linesFor = (worker: number) =>
  Array.from({ length: 20 }, (_, i) => products[(worker * 20 + i) % products.length]).map((p, i) => ({
    product_id: Number(p.id),
    qty: String(1 + (i % 5)),
    discount_percent: "0",
  }));
const lines = linesFor(0);
// Plenty of stock for the deliveries (the bench's own opening moves).
await db.execute(sql`insert into stock_move (workspace_id, product_id, location_id, qty, unit_cost, doc_type, doc_id)
  select ${demo}::uuid, p.id, ${tuas}, 1000000, p.cost, 'bench_opening', 0 from product p
  where p.workspace_id = ${demo}::uuid and p.id = any(${`{${products.map((p) => p.id).join(",")}}`}::bigint[])`);

const auth = await signedInHeaders(server.url, "owner@demo.test");
// The server closes a keep-alive connection idle past its timeout (between two phases); a request that meets such a
// socket never reached the server and is sent again, once.
async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    if (code !== "ECONNRESET" && code !== "EPIPE" && code !== "UND_ERR_SOCKET") throw err;
    return fetch(url, init);
  }
}
async function rpc(fn: string, body: unknown): Promise<{ ms: number; json: Record<string, unknown> }> {
  const t = performance.now();
  const res = await send(`${server.url}/rest/v1/rpc/${fn}`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const ms = performance.now() - t;
  if (!res.ok) throw new Error(`${fn}: ${res.status} ${text}`);
  return { ms, json: JSON.parse(text) };
}

// ---- 1. submit ---------------------------------------------------------------------------------------------------

async function apiInvoiceSubmit(workers: number): Promise<void> {
  const saves: number[] = [];
  // The rate is of save + submit pairs; the latencies are the submit's alone.
  const f = await closedLoop(`invoice save+submit via API, ${workers} conn (p: submit)`, workers, async () => {
    const saved = await rpc("document_save", {
      type: "invoice",
      header: { company_id: customer, notes: "bench" },
      lines,
    });
    saves.push(saved.ms);
    const submitted = await rpc("document_transition", { type: "invoice", id: saved.json.id, action: "submit" });
    if (submitted.json.status !== "unpaid") throw new Error(`submitted as ${submitted.json.status}`);
    return submitted.ms;
  });
  print(f, `   save p50 ${quantile(saves, 0.5).toFixed(1)} ms`);
}

// The submit alone — the issue's "submits/s at 4 connections": drafts saved through the API beforehand (not timed),
// then each worker submits one after another.
async function apiInvoiceSubmitOnly(workers: number): Promise<void> {
  const drafts: number[] = [];
  const need = Math.max(200, Math.round(workers * DURATION * 60));
  for (let made = 0; made < need; ) {
    const batch = Math.min(8, need - made);
    const saved = await Promise.all(
      Array.from({ length: batch }, () =>
        rpc("document_save", { type: "invoice", header: { company_id: customer, notes: "bench" }, lines }),
      ),
    );
    for (const s of saved) drafts.push(Number(s.json.id));
    made += batch;
  }
  // The client in a thread of its own (submit-client.mjs), so the server alone has this thread.
  const done = await new Promise<{ latencies: number[]; seconds: number }>((resolve, reject) => {
    const w = new Worker(new URL("./submit-client.mjs", import.meta.url), {
      workerData: {
        url: server.url,
        headers: { ...auth, "content-type": "application/json" },
        type: "invoice",
        ids: drafts,
        workers,
        seconds: DURATION,
      },
    });
    w.once("message", resolve);
    w.once("error", reject);
  });
  print({
    name: `invoice submit via API (drafts made before), ${workers} conn`,
    n: done.latencies.length,
    seconds: done.seconds,
    p50: quantile(done.latencies, 0.5),
    p95: quantile(done.latencies, 0.95),
  });
}

// The same submit by hand: what the engine must do at least, in one transaction.
async function directInvoiceSubmit(workers: number): Promise<void> {
  // Drafts made by SQL beforehand (not timed): a header with its totals and 20 lines.
  const need = 4000;
  await db.execute(sql`with h as (
      insert into invoice (workspace_id, status, company_id, subtotal, net_total, tax_total, total, base_total, notes)
      select ${demo}::uuid, 'draft', ${customer}, 1000, 1000, 90, 1090, 1090, 'bench-direct' from generate_series(1, ${need})
      returning id)
    insert into invoice_line (workspace_id, invoice_id, line_no, product_id, description, qty, unit_price, line_total,
      net_amount)
    select ${demo}::uuid, h.id, g, ${products[0].id}, 'Bench line', 1, 50, 50, 50 from h, generate_series(1, 20) g`);
  const drafts = (
    await db.execute(sql`select id from invoice where workspace_id = ${demo}::uuid and notes = 'bench-direct'
      and status = 'draft' order by id`)
  ).rows.map((r) => Number((r as { id: number }).id));
  let next = 0;
  const year = new Date().getUTCFullYear();
  const f = await closedLoop(
    `invoice submit as direct SQL, ${workers} conn`,
    workers,
    async () => {
      const id = drafts[next++];
      const t = performance.now();
      await directTx(async (q) => {
        const [h] = await q(sql`select id, status, total::text as total, doc_date::text as doc_date from invoice
          where workspace_id = ${demo}::uuid and id = ${id} for update`);
        await q(sql`select id, qty::text, unit_price::text from invoice_line where workspace_id = ${demo}::uuid
          and invoice_id = ${id} order by line_no`);
        const [n] = await q(sql`insert into number_counter (workspace_id, doc_type, year, next)
          values (${demo}::uuid, 'bench_invoice', ${year}, 2)
          on conflict (workspace_id, doc_type, year) do update set next = number_counter.next + 1 returning next - 1 as n`);
        await q(sql`update invoice set status = 'unpaid', number = ${`BINVD-${year}-${n.n}`},
          due_date = doc_date + 30, outstanding = total, updated_at = now()
          where workspace_id = ${demo}::uuid and id = ${id}`);
        const [e] =
          await q(sql`insert into journal_entry (workspace_id, number, entry_date, memo, source_type, source_id)
          values (${demo}::uuid, ${`BINVD-${year}-${n.n}`}, ${String(h.doc_date)}::date, 'Invoice', 'invoice', ${id})
          returning id`);
        await q(sql`insert into journal_line (workspace_id, entry_id, line_no, account_code, debit, credit, memo) values
          (${demo}::uuid, ${e.id}, 1, '1100', 1090, 0, 'Invoice'), (${demo}::uuid, ${e.id}, 2, '4000', 0, 1000, 'Invoice'),
          (${demo}::uuid, ${e.id}, 3, '2200', 0, 90, 'Invoice')`);
        await q(sql`insert into document_event (workspace_id, doc_type, doc_id, action, from_status, to_status)
          values (${demo}::uuid, 'invoice', ${id}, 'submit', 'draft', 'unpaid')`);
      });
      return performance.now() - t;
    },
    drafts.length,
  );
  print(f);
}

// A delivery order of a 20-line sales order: made by document_convert (not counted), then submitted.
async function apiDeliverySubmit(workers: number): Promise<void> {
  const f = await closedLoop(
    `SO save+submit, DO convert+submit via API, ${workers} conn (p: DO submit)`,
    workers,
    async (w) => {
      const order = await rpc("document_save", {
        type: "sales_order",
        header: { company_id: customer },
        lines: linesFor(w),
      });
      await rpc("document_transition", { type: "sales_order", id: order.json.id, action: "submit" });
      const delivery = await rpc("document_convert", {
        type: "sales_order",
        id: order.json.id,
        to: "delivery_order",
        header: { location_id: tuas },
      });
      const submitted = await rpc("document_transition", {
        type: "delivery_order",
        id: delivery.json.id,
        action: "submit",
      });
      if (submitted.json.status !== "to_bill") throw new Error(`submitted as ${submitted.json.status}`);
      return submitted.ms;
    },
  );
  print(f);
}

// ---- 2. and 3. the lists and AR ageing over bulk-loaded invoices --------------------------------------------------

async function loadInvoices(): Promise<void> {
  const t = performance.now();
  const companies = (
    await db.execute(sql`select id from company where workspace_id = ${demo}::uuid and is_customer order by id`)
  ).rows.map((r) => Number((r as { id: number }).id));
  // Half open (unpaid when not yet due, else overdue), half paid; dated over three years; the customers in turn.
  await db.execute(sql`insert into invoice (workspace_id, number, status, doc_date, due_date, company_id, subtotal,
      net_total, tax_total, total, base_total, outstanding)
    select ${demo}::uuid, 'BINV-' || g, case when g % 2 = 0 then 'paid'
        when current_date - (g % 1095) + 30 < current_date then 'overdue' else 'unpaid' end,
      current_date - (g % 1095), current_date - (g % 1095) + 30,
      (${`{${companies.join(",")}}`}::bigint[])[1 + g % ${companies.length}],
      (g % 5000) + 100, (g % 5000) + 100, round(((g % 5000) + 100) * 0.09, 2), round(((g % 5000) + 100) * 1.09, 2),
      round(((g % 5000) + 100) * 1.09, 2), case when g % 2 = 0 then 0 else round(((g % 5000) + 100) * 1.09, 2) end
    from generate_series(1, ${LIST_ROWS}) g`);
  await db.execute(sql`insert into product (workspace_id, sku, name, price, cost)
    select ${demo}::uuid, 'BN-' || g, 'Bench item ' || md5(g::text), (g % 997)::numeric / 7, (g % 991)::numeric / 9
    from generate_series(1, ${LIST_ROWS}) g`);
  await db.execute(sql`vacuum analyze`);
  await db.execute(sql`checkpoint`);
  console.log(
    `loaded ${LIST_ROWS} invoices (${LIST_ROWS / 2} open) and ${LIST_ROWS} products in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
}

async function apiGet(path: string): Promise<number> {
  const t = performance.now();
  const res = await send(`${server.url}${path}`, { headers: { ...auth, prefer: "count=exact" } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return performance.now() - t;
}

const PAGES = 200;
async function lists(workers: number): Promise<void> {
  const page = (i: number) => ((i * 7) % PAGES) * 50;
  print(
    await closedLoop(`product list via API, ${workers} conn`, workers, (_, i) =>
      apiGet(`/rest/v1/product?select=*,category:category(name)&order=name&limit=50&offset=${page(i)}`),
    ),
  );
  print(
    await closedLoop(`invoice list via API, ${workers} conn`, workers, (_, i) =>
      apiGet(`/rest/v1/invoice?select=*,company:company(name)&order=doc_date.desc,id.desc&limit=50&offset=${page(i)}`),
    ),
  );
  print(
    await closedLoop(`invoice list, open only (status=in.(…)), via API, ${workers} conn`, workers, (_, i) =>
      apiGet(
        `/rest/v1/invoice?select=*,company:company(name)&status=in.(unpaid,partly_paid,overdue)&order=doc_date.desc,id.desc&limit=50&offset=${page(i)}`,
      ),
    ),
  );
  print(
    await closedLoop(`invoice list page + count(*) as direct SQL, ${workers} conn`, workers, async (_, i) => {
      const t = performance.now();
      await directTx(async (q) => {
        await q(sql`select i.*, json_build_object('name', c.name) as company from invoice i
          left join company c on c.workspace_id = i.workspace_id and c.id = i.company_id
          where i.workspace_id = ${demo}::uuid order by i.doc_date desc, i.id desc limit 50 offset ${page(i)}`);
        await q(sql`select count(*) from invoice where workspace_id = ${demo}::uuid`);
      });
      return performance.now() - t;
    }),
  );
}

// AR ageing: the report as the page asks for it, and its statement by hand.
const AGEING = (asOf: string) => sql`with later as (
    select a.document_id, sum(a.amount) as amount from payment_allocation a
    join receipt r on r.workspace_id = a.workspace_id and r.id = a.payment_id
    where a.workspace_id = ${demo}::uuid and a.payment_type = 'receipt' and a.document_type = 'invoice'
      and r.doc_date > ${asOf}::date group by a.document_id
  ), o as (
    select i.company_id, round((i.outstanding + coalesce(l.amount, 0)) * i.rate, 2) as amount,
      (${asOf}::date - coalesce(i.due_date, i.doc_date)) as days
    from invoice i left join later l on l.document_id = i.id
    where i.workspace_id = ${demo}::uuid and i.doc_date <= ${asOf}::date and i.status not in ('draft', 'cancelled')
      and (i.outstanding > 0 or l.document_id is not null)
  )
  select o.company_id, c.name, count(*), sum(o.amount) filter (where o.days <= 0) as current,
    sum(o.amount) filter (where o.days between 1 and 30) as d30, sum(o.amount) filter (where o.days between 31 and 60) as d60,
    sum(o.amount) filter (where o.days between 61 and 90) as d90, sum(o.amount) filter (where o.days > 90) as older,
    sum(o.amount) as total
  from o join company c on c.workspace_id = ${demo}::uuid and c.id = o.company_id where o.amount > 0
  group by rollup ((o.company_id, c.name))`;

async function ageing(): Promise<void> {
  const asOf = (await one<{ d: string }>(sql`select current_date::text as d`)).d;
  const check = await rpc("report", { name: "ar_ageing" });
  console.log(
    `ar_ageing answers ${(check.json.rows as unknown[]).length} customers, total ${(check.json.totals as { total: string }).total}`,
  );
  print(
    await closedLoop(
      "AR ageing via API (rpc/report ar_ageing), 1 conn",
      1,
      async () => (await rpc("report", { name: "ar_ageing" })).ms,
      20,
    ),
  );
  print(
    await closedLoop(
      "AR ageing as direct SQL, 1 conn",
      1,
      async () => {
        const t = performance.now();
        await directTx(async (q) => {
          await q(AGEING(asOf));
        });
        return performance.now() - t;
      },
      20,
    ),
  );
}

try {
  console.log(
    `documents bench on ${onPg ? "PostgreSQL" : "PGlite"}, node ${process.version}, ${DURATION} s per level, load ${(await import("node:os")).loadavg()[0].toFixed(1)}`,
  );
  for (const level of LEVELS) {
    if (phase("submit")) await apiInvoiceSubmitOnly(level);
    if (phase("pairs")) await apiInvoiceSubmit(level);
    if (phase("direct")) await directInvoiceSubmit(level);
  }
  if (phase("delivery")) for (const level of LEVELS) await apiDeliverySubmit(level);
  if (phase("lists")) {
    await loadInvoices();
    for (const level of [1, 4]) await lists(level);
    await ageing();
  }
  console.log("\n| operation | per s | p50 ms | p95 ms |\n|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
} finally {
  await pool?.end();
  await server.close();
}
