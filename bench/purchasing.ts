// Issue 11: receipt and supplier invoice submits through the HTTP API as a client runs them (document_transition
// submit), each of a 20-line document, sequentially and from 4 connections. A receipt's submit draws qty_received
// on its order under the order's locks, moves 20 products' cost to the moving average, writes 20 stock moves and the
// Dr 1200 / Cr 2100 entry; a supplier invoice's draws qty_billed on the receipt and through it on the order, runs
// the three-way check over its lines, and posts Dr 2100 / Dr 1300 / Cr 2000. The drafts are made beforehand through
// the same API (document_save, submit, document_convert), so only the submit is timed.
// Run: node --import tsx bench/purchasing.ts   (PGlite; TEST_DATABASE_URL=… for PostgreSQL). BENCH_DOCS (default 40).
import { performance } from "node:perf_hooks";
import { startTestServer } from "../apps/server/test/harness.ts";
import { signedInHeaders } from "./session.ts";

const DOCS = Number(process.env.BENCH_DOCS ?? 40);
const LINES = 20;

const server = await startTestServer({ LOG_LEVEL: process.env.BENCH_LOG ?? "silent", SEED: "basic" });
const headers = { ...(await signedInHeaders(server.url)), "content-type": "application/json" };

async function rpc<T = { id: number; lines: Array<{ id: number }> }>(fn: string, body: unknown): Promise<T> {
  const res = await fetch(`${server.url}/rest/v1/rpc/${fn}`, { method: "POST", headers, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${fn}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
async function get<T>(path: string): Promise<T> {
  return (await (await fetch(`${server.url}/rest/v1/${path}`, { headers })).json()) as T;
}

const [supplier] = await get<Array<{ id: number }>>("company?select=id&is_supplier=is.true&limit=1");
const products = await get<Array<{ id: number }>>(`product?select=id&order=id&limit=${LINES}`);
const [location] = await get<Array<{ id: number }>>("location?select=id&order=id&limit=1");

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

async function timed(name: string, type: string, ids: number[], workers: number): Promise<void> {
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < ids.length) {
        const id = ids[next++];
        const t = performance.now();
        await rpc("document_transition", { type, id, action: "submit" });
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const sorted = [...latencies].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))].toFixed(1);
  console.log(
    `${name.padEnd(44)} ${(ids.length / seconds).toFixed(1).padStart(7)}/s   p50 ${q(0.5).padStart(7)} ms   p95 ${q(0.95).padStart(7)} ms   (n ${ids.length})`,
  );
}

console.log(`purchasing submits, ${LINES} lines each, on ${server.databaseUrl ? "PostgreSQL" : "PGlite"}`);
for (const workers of [1, 4]) {
  const pos = await orders(DOCS);
  const receipts: number[] = [];
  for (const id of pos) receipts.push((await convert("purchase_order", id, "supplier_delivery_order")).id);
  await timed(`receipt submit, ${workers} connection(s)`, "supplier_delivery_order", receipts, workers);
  const invoices: number[] = [];
  for (const [i, id] of receipts.entries()) {
    const draft = await convert("supplier_delivery_order", id, "supplier_invoice");
    await rpc("document_save", {
      type: "supplier_invoice",
      id: draft.id,
      header: { company_id: supplier.id, supplier_invoice_number: `BENCH-${workers}-${i}` },
      lines: (draft as unknown as { lines: Array<Record<string, unknown>> }).lines.map((l) => ({
        source_line_id: l.source_line_id,
        product_id: l.product_id,
        qty: l.qty,
        unit_price: l.unit_price,
      })),
    });
    invoices.push(draft.id);
  }
  await timed(`supplier invoice submit, ${workers} connection(s)`, "supplier_invoice", invoices, workers);
}
await server.close();
