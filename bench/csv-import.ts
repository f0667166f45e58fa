// Issue 5 item 4: POST /rest/v1/rpc/csv_import of 1,000 products as the web's import dialog sends them (cells as
// text, the category named by its label), then a file of 1,000 with one bad row, all-or-nothing and with
// skip_bad_rows; then the first file again, as plain inserts (every SKU taken) and as an upsert (every row an
// update). Each file is timed end to end through the server; every round uses fresh SKUs.
// Run: node --import tsx bench/csv-import.ts                     (PGlite)
//      TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/csv-import.ts
// BENCH_ROWS and BENCH_ROUNDS adjust it.
import { performance } from "node:perf_hooks";
import { startTestServer } from "../apps/server/test/harness.ts";
import { signedInHeaders } from "./session.ts";

const ROWS = Number(process.env.BENCH_ROWS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

type Report = { committed: boolean; imported: number; skipped: number; errors: { row: number; field: string }[] };

const server = await startTestServer({ LOG_LEVEL: "silent" });

async function category(headers: Record<string, string>): Promise<string> {
  const res = await fetch(`${server.url}/rest/v1/category?select=name&limit=1`, { headers });
  return ((await res.json()) as { name: string }[])[0].name;
}

// What the dialog sends: one record per line, keyed by field name, every cell as text.
function file(prefix: string, categoryName: string, badAt: number | null): Record<string, string>[] {
  return Array.from({ length: ROWS }, (_, i) => ({
    sku: `${prefix}-${String(i + 1).padStart(5, "0")}`,
    name: i === badAt ? "" : `Bench import item ${i + 1}`,
    description: `Imported by the bench, line ${i + 2}`,
    category_id: categoryName,
    unit: "pcs",
    cost: (i % 97).toFixed(2),
    price: ((i % 97) * 1.4).toFixed(2),
    tax_code: "SR",
    is_stock_tracked: i % 2 ? "yes" : "no",
    image_urls: "",
    active: "true",
  }));
}

async function importFile(
  headers: Record<string, string>,
  rows: Record<string, string>[],
  skip: boolean,
  upsert = false,
) {
  const t = performance.now();
  const res = await fetch(`${server.url}/rest/v1/rpc/csv_import`, {
    method: "POST",
    headers,
    body: JSON.stringify({ resource: "product", rows, skip_bad_rows: skip, upsert }),
  });
  const ms = performance.now() - t;
  if (!res.ok) throw new Error(`csv_import failed: ${res.status} ${await res.text()}`);
  return { ms, report: (await res.json()) as Report };
}

function line(name: string, ms: number, r: Report): void {
  const first = r.errors[0];
  const errs = first ? `, ${r.errors.length} error(s), first row ${first.row} (${first.field})` : "";
  console.log(
    `${name.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms   committed ${String(r.committed).padEnd(5)} imported ${r.imported}${errs}`,
  );
}

try {
  const headers = { ...(await signedInHeaders(server.url)), "content-type": "application/json" };
  const cat = await category(headers);
  await importFile(headers, file("WARM", cat, null).slice(0, 20), false); // JIT, pool, caches
  console.log(`csv_import bench on ${server.databaseUrl ? "PostgreSQL" : "PGlite"}: ${ROWS} products per file`);
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`round ${round} of ${ROUNDS}`);
    const good = await importFile(headers, file(`BG${round}`, cat, null), false);
    line(`${ROWS} good rows`, good.ms, good.report);
    const badAt = Math.floor(ROWS * 0.7);
    const strict = await importFile(headers, file(`BS${round}`, cat, badAt), false);
    line("one bad row, all-or-nothing", strict.ms, strict.report);
    const skip = await importFile(headers, file(`BK${round}`, cat, badAt), true);
    line("one bad row, skip_bad_rows", skip.ms, skip.report);
    const again = await importFile(headers, file(`BG${round}`, cat, null), true);
    line("same file again (all duplicates)", again.ms, again.report);
    const upsert = await importFile(headers, file(`BG${round}`, cat, null), false, true);
    line("same file again, upsert (updates)", upsert.ms, upsert.report);
  }
} finally {
  await server.close();
}
