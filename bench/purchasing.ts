// Issue 11: receipt and supplier invoice submits through the HTTP API as a client runs them (document_transition
// submit), each of a 20-line document, sequentially and from 4 connections; beside each, the same submit as one
// hand-written SQL transaction (purchasing-direct.ts) on drafts made the same way, so the engine's cost shows as a
// ratio. A receipt's submit draws qty_received on its order under the order's locks, moves 20 products' cost to the
// moving average, writes 20 stock moves and the Dr 1200 / Cr 2100 entry; a supplier invoice's draws qty_billed on
// the receipt and through it on the order, runs the three-way check over its lines, and posts Dr 2100 / Dr 1300 /
// Cr 2000. The drafts are made beforehand through the same API (document_save, submit, document_convert), so only
// the submit is timed. Every order is of the same 20 products, so at 4 connections receipts queue on the products'
// locks by design (the moving average), on both paths.
// The direct path is checked, not trusted: every document it submitted is numbered, in its status, with one balanced
// entry and its audit row (a receipt's entry at its moves' value); the first API and the first direct document of
// each level must leave the same footprint (statuses, entry lines, moves, audit rows, links, three-way reasons,
// drawn quantities); and the products' costs at the end must be the moving average replayed over every receipt.
// On PostgreSQL the direct transactions run on their own pooled connections as the database's owner (no RLS, no
// request settings); on PGlite through the one database the server uses.
// Run: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/purchasing.ts
//      node --import tsx bench/purchasing.ts   (PGlite). BENCH_DOCS (documents per path and level, default 40).

import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { isDeepStrictEqual } from "node:util";
import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import type { Tx } from "../apps/server/src/platform/db/database.ts";
import { startTestServer } from "../apps/server/test/harness.ts";
import {
  costsBefore,
  footprint,
  type Q,
  type Row,
  replayCosts,
  submitInvoiceDirect,
  submitReceiptDirect,
  verifyJournalMonth,
  verifySubmitted,
} from "./purchasing-direct.ts";
import { signedInHeaders } from "./session.ts";

const DOCS = Number(process.env.BENCH_DOCS ?? 40);
const LINES = 20;
const EMAIL = "admin@demo.test";

const server = await startTestServer({ LOG_LEVEL: process.env.BENCH_LOG ?? "silent", SEED: "basic" });
const db = server.running.database.db;
const pool = server.databaseUrl ? new pg.Pool({ connectionString: server.databaseUrl, max: 8 }) : null;
const dialect = new PgDialect();
const headers = { ...(await signedInHeaders(server.url, EMAIL)), "content-type": "application/json" };

async function rpc<T = { id: number; lines: Array<{ id: number }> }>(fn: string, body: unknown): Promise<T> {
  const res = await fetch(`${server.url}/rest/v1/rpc/${fn}`, { method: "POST", headers, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${fn}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
async function get<T>(path: string): Promise<T> {
  return (await (await fetch(`${server.url}/rest/v1/${path}`, { headers })).json()) as T;
}

// Reads outside the timings, through the server's own handle.
const read: Q = async (s) => (await db.execute(s)).rows as Row[];

// One transaction through the driver: on PostgreSQL a pooled connection, on PGlite the one database.
async function directTx<T>(fn: (q: Q) => Promise<T>): Promise<T> {
  if (pool) {
    const client = await pool.connect();
    try {
      await client.query("begin");
      const out = await fn(async (s: SQL) => {
        const { sql: text, params } = dialect.sqlToQuery(s);
        return (await client.query(text, params as unknown[])).rows as Row[];
      });
      await client.query("commit");
      return out;
    } catch (err) {
      await client.query("rollback");
      throw err;
    } finally {
      client.release();
    }
  }
  return db.transaction(async (tx: Tx) => fn(async (s) => (await tx.execute(s)).rows as Row[]));
}

const [supplier] = await get<Array<{ id: number }>>("company?select=id&is_supplier=is.true&limit=1");
const products = await get<Array<{ id: number }>>(`product?select=id&order=id&limit=${LINES}`);
const [location] = await get<Array<{ id: number }>>("location?select=id&order=id&limit=1");
const [me] = await read(sql`select workspace_id::text as ws, id::text as id from "user" where email = ${EMAIL}`);
const ws = String(me.ws);
const user = String(me.id);

// `n` submitted orders of 20 lines, each received on a draft receipt; then, once received, billed on a draft invoice.
async function orders(n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const po = await rpc("document_save", {
      type: "purchase_order",
      header: { company_id: supplier.id, location_id: location.id },
      lines: products.map((p, k) => ({ product_id: p.id, qty: "5", unit_price: String(10 + k) })),
    });
    await rpc("document_transition", { type: "purchase_order", id: po.id, action: "submit" });
    ids.push(po.id);
  }
  return ids;
}
const convert = (type: string, id: number, to: string) => rpc("document_convert", { type, id, to });

async function receiptDrafts(n: number): Promise<number[]> {
  const receipts: number[] = [];
  for (const id of await orders(n)) receipts.push((await convert("purchase_order", id, "supplier_delivery_order")).id);
  return receipts;
}

async function invoiceDrafts(receipts: readonly number[], tag: string): Promise<number[]> {
  const invoices: number[] = [];
  for (const [i, id] of receipts.entries()) {
    const draft = await convert("supplier_delivery_order", id, "supplier_invoice");
    await rpc("document_save", {
      type: "supplier_invoice",
      id: draft.id,
      header: { company_id: supplier.id, supplier_invoice_number: `BENCH-${tag}-${i}` },
      lines: (draft as unknown as { lines: Array<Record<string, unknown>> }).lines.map((l) => ({
        source_line_id: l.source_line_id,
        product_id: l.product_id,
        qty: l.qty,
        unit_price: l.unit_price,
      })),
    });
    invoices.push(draft.id);
  }
  return invoices;
}

type Figures = { name: string; path: "API" | "direct"; workers: number; rate: number; p50: number; p95: number };
const figures: Figures[] = [];

async function timed(
  name: string,
  path: Figures["path"],
  ids: readonly number[],
  workers: number,
  submit: (id: number) => Promise<unknown>,
): Promise<void> {
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < ids.length) {
        const id = ids[next++];
        const t = performance.now();
        await submit(id);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const sorted = [...latencies].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
  const f = { name, path, workers, rate: ids.length / seconds, p50: q(0.5), p95: q(0.95) };
  figures.push(f);
  console.log(
    `${`${name} via ${path}, ${workers} conn`.padEnd(44)} ${f.rate.toFixed(1).padStart(7)}/s   p50 ${f.p50.toFixed(1).padStart(7)} ms   p95 ${f.p95.toFixed(1).padStart(7)} ms   (n ${ids.length})`,
  );
}

const apiSubmit = (type: string) => (id: number) => rpc("document_transition", { type, id, action: "submit" });

// The tables the submits read, analyzed once their drafts are made (not timed): a fresh database has no statistics,
// and the direct path's joins would be planned blind (a nested loop over a whole line table per line), which no
// database in use is.
async function analyze(): Promise<void> {
  await read(sql`analyze purchase_order, purchase_order_line, supplier_delivery_order, supplier_delivery_order_line,
    supplier_invoice, supplier_invoice_line, product, stock_move, journal_entry, journal_line, document_event`);
}

async function sameFootprint(type: string, api: number, direct: number): Promise<void> {
  const a = await footprint(read, ws, type, api);
  const d = await footprint(read, ws, type, direct);
  if (!isDeepStrictEqual(a, d)) {
    throw new Error(`${type}: the direct submit left another footprint than the API's:
API    ${JSON.stringify(a)}
direct ${JSON.stringify(d)}`);
  }
}

try {
  console.log(
    `purchasing submits, ${LINES} lines each, on ${server.databaseUrl ? "PostgreSQL" : "PGlite"}, node ${process.version}, load ${loadavg()[0].toFixed(2)}`,
  );
  const before = await costsBefore(
    read,
    ws,
    products.map((p) => p.id),
  );
  for (const workers of [1, 4]) {
    const apiReceipts = await receiptDrafts(DOCS);
    const directReceipts = await receiptDrafts(DOCS);
    await analyze();
    await timed("receipt submit", "API", apiReceipts, workers, apiSubmit("supplier_delivery_order"));
    await timed("receipt submit", "direct", directReceipts, workers, (id) =>
      directTx((q) => submitReceiptDirect(q, ws, user, id)),
    );
    await verifySubmitted(read, ws, "supplier_delivery_order", directReceipts);
    const apiInvoices = await invoiceDrafts(apiReceipts, `api-${workers}`);
    const directInvoices = await invoiceDrafts(directReceipts, `direct-${workers}`);
    await analyze();
    await timed("supplier invoice submit", "API", apiInvoices, workers, apiSubmit("supplier_invoice"));
    await timed("supplier invoice submit", "direct", directInvoices, workers, (id) =>
      directTx((q) => submitInvoiceDirect(q, ws, user, id)),
    );
    await verifySubmitted(read, ws, "supplier_invoice", directInvoices);
    await verifySubmitted(read, ws, "supplier_delivery_order", directReceipts);
    await sameFootprint("supplier_delivery_order", apiReceipts[0], directReceipts[0]);
    await sameFootprint("supplier_invoice", apiInvoices[0], directInvoices[0]);
  }
  const wrong = await replayCosts(read, ws, before);
  if (wrong.length) throw new Error(`products' costs are not the moving average: ${wrong.slice(0, 3).join("; ")}`);
  await verifyJournalMonth(read, ws);
  console.log(
    "checked: direct documents submitted and balanced, footprints alike, costs the moving average, journal_month",
  );

  console.log("\n| operation | conn | API per s | p50 ms | p95 ms | direct per s | p50 ms | p95 ms | direct ÷ API |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const a of figures.filter((f) => f.path === "API")) {
    const d = figures.find((f) => f.path === "direct" && f.name === a.name && f.workers === a.workers);
    if (!d) continue;
    console.log(
      `| ${a.name} | ${a.workers} | ${a.rate.toFixed(1)} | ${a.p50.toFixed(1)} | ${a.p95.toFixed(1)} | ${d.rate.toFixed(1)} | ${d.p50.toFixed(1)} | ${d.p95.toFixed(1)} | ${(d.rate / a.rate).toFixed(1)}× |`,
    );
  }
  console.log(`load ${loadavg()[0].toFixed(2)}`);
} finally {
  await pool?.end();
  await server.close();
}
