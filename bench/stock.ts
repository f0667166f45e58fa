// Issue 11 "Stock": the stock levels page over a workspace with 200,000 stock moves (2,000 products, 4 locations,
// 1,000 open sales orders reserving, 500 reorder levels), (a) straight through the database driver and (b) through
// POST /rest/v1/rpc/stock_levels, side by side; also the stock card of one product and the stock_valuation report.
// (a) runs the same statement the command runs (stockLevels), and beside it the naive query a hand-written page would
// start with: Σ qty over every move grouped by product, then the page.
// Generates the data with SQL into a fresh database (never into the repository), in the demo workspace.
// Run: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/stock.ts
//      node --import tsx bench/stock.ts            (PGlite)
// BENCH_REQUESTS (sequential requests per figure, default 30) and BENCH_MOVES (default 200000) adjust it.
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { stockLevels } from "../apps/server/src/modules/inventory/stock-levels.rpc.ts";
import { inRequest } from "../apps/server/src/platform/db/database.ts";
import { startTestServer } from "../apps/server/test/harness.ts";
import { signedInHeaders } from "./session.ts";
import { timed } from "./timed.ts";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 30);
const MOVES = Number(process.env.BENCH_MOVES ?? 200_000);
const PRODUCTS = 2000;

const server = await startTestServer({ LOG_LEVEL: "silent" });
const onPg = Boolean(server.databaseUrl);
const db = server.running.database.db;

const time = (name: string, run: (i: number) => Promise<unknown>) => timed(name, REQUESTS, run);

async function generate(ws: string): Promise<{ location: number; product: number }> {
  const t = performance.now();
  await db.execute(sql`insert into product (workspace_id, sku, name, cost, price)
    select ${ws}::uuid, 'BS-' || g, 'Bench stock item ' || lpad(g::text, 5, '0'), 10, 20
    from generate_series(1, ${PRODUCTS}) g`);
  await db.execute(sql`insert into location (workspace_id, code, name)
    select ${ws}::uuid, 'BL-' || g, 'Bench location ' || g from generate_series(1, 4) g`);
  const ids = sql`(select array_agg(id order by id) from product where workspace_id = ${ws}::uuid and sku like 'BS-%')`;
  const locs = sql`(select array_agg(id order by id) from location where workspace_id = ${ws}::uuid and code like 'BL-%')`;
  await db.execute(sql`insert into stock_move (workspace_id, product_id, location_id, qty, unit_cost, doc_type, doc_id)
    select ${ws}::uuid, p.ids[1 + (g % ${PRODUCTS})], l.ids[1 + (g / ${PRODUCTS}) % 4],
      case when g % 3 = 0 then -1 else 2 end, 10, 'bench', g
    from generate_series(0, ${MOVES - 1}) g, ${ids} as p(ids), ${locs} as l(ids)`);
  const company = (await db.execute(sql`select id from company where workspace_id = ${ws}::uuid order by id limit 1`))
    .rows[0] as { id: number };
  await db.execute(sql`insert into sales_order (workspace_id, company_id, status)
    select ${ws}::uuid, ${company.id}, 'to_deliver' from generate_series(1, 1000)`);
  await db.execute(sql`insert into sales_order_line (workspace_id, sales_order_id, line_no, product_id, description, qty,
      unit_price)
    select ${ws}::uuid, o.id, 1, p.ids[1 + (o.id % ${PRODUCTS})], 'Bench line', 5, 20
    from sales_order o, ${ids} as p(ids) where o.workspace_id = ${ws}::uuid and o.status = 'to_deliver'`);
  await db.execute(sql`insert into reorder_level (workspace_id, product_id, location_id, min_qty, reorder_qty)
    select ${ws}::uuid, p.ids[g], l.ids[1], 40 + (g % 20), 100 from generate_series(1, 500) g, ${ids} as p(ids),
      ${locs} as l(ids)`);
  await db.execute(sql`analyze`);
  const first = (await db.execute(sql`select (${ids})[1] as product, (${locs})[1] as location`)).rows[0] as {
    product: number;
    location: number;
  };
  console.log(`generated ${MOVES} moves over ${PRODUCTS} products in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return { product: Number(first.product), location: Number(first.location) };
}

try {
  const ws = ((await db.execute(sql`select id from workspace where slug = 'demo'`)).rows[0] as { id: string }).id;
  const { product, location } = await generate(ws);
  console.log(
    `stock bench on ${onPg ? "PostgreSQL" : "PGlite"}, ${REQUESTS} sequential requests each, node ${process.version}`,
  );
  const asMember = <T>(run: (tx: Parameters<Parameters<typeof inRequest>[2]>[0]) => Promise<T>) =>
    inRequest(db, { workspaceId: ws, userId: null, role: "authenticated" }, run);

  // (a) direct
  await time("(a) naive: Σ every move by product, then a page", (i) =>
    db.execute(sql`with s as (select product_id, sum(qty) as on_hand from stock_move
        where workspace_id = ${ws}::uuid group by product_id)
      select p.id, p.name, coalesce(s.on_hand, 0) from product p left join s on s.product_id = p.id
      where p.workspace_id = ${ws}::uuid order by p.name, p.id limit 50 offset ${(i % 20) * 50}`),
  );
  await time("(a) stockLevels() statement, page of 50", (i) =>
    asMember((tx) => stockLevels(tx, ws, { limit: 50, offset: (i % 20) * 50 })),
  );
  await time("(a) stockLevels() to reorder (500 levels)", () =>
    asMember((tx) => stockLevels(tx, ws, { to_reorder: true, limit: 50, offset: 0 })),
  );

  // (b) through the server
  const headers = { ...(await signedInHeaders(server.url)), "content-type": "application/json" };
  const call = async (fn: string, body: unknown) => {
    const res = await fetch(`${server.url}/rest/v1/rpc/${fn}`, { method: "POST", headers, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${fn}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  await time("(b) rpc/stock_levels page of 50", (i) => call("stock_levels", { limit: 50, offset: (i % 20) * 50 }));
  await time("(b) rpc/stock_levels search 'item 01'", () => call("stock_levels", { search: "item 01", limit: 50 }));
  await time("(b) rpc/stock_levels one location", (i) =>
    call("stock_levels", { location_id: location, limit: 50, offset: (i % 20) * 50 }),
  );
  await time("(b) rpc/stock_levels to reorder", () => call("stock_levels", { to_reorder: true, limit: 50 }));
  await time("(b) rpc/stock_card one product (100 moves)", () => call("stock_card", { product_id: product }));
  await time("(b) rpc/report stock_valuation (all moves)", () => call("report", { name: "stock_valuation" }));
} finally {
  await server.close();
}
