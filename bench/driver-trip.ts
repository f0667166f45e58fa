// Issue 22 "bench/": the driver's day list (delivery_trip) over a workspace with 100,000 delivery orders, made
// directly with SQL (one line each, over two years of planned dates; one in twenty to the demo driver, the rest to
// nobody), then timed through /rest/v1/rpc as the driver app asks it: a day with stops, an empty day, and the
// reorder of a day's stops. Prints figures, asserts no times.
// Run: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/driver-trip.ts
//      node --import tsx bench/driver-trip.ts            (PGlite)
// BENCH_ORDERS (default 100000) and BENCH_REQUESTS (default 50) adjust it.
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { startTestServer } from "../apps/server/test/harness.ts";
import { useServer } from "../apps/server/test/http.ts";
import { restFetch } from "../apps/server/test/rest-helpers.ts";
import { timed } from "./timed.ts";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 50);
const DRIVER = "driver@demo.test";

const server = await startTestServer({ LOG_LEVEL: "silent" });
useServer(server.url);
const db = server.running.database.db;
const one = async <T>(q: ReturnType<typeof sql>) => (await db.execute(q)).rows[0] as T;

try {
  const { ws } = await one<{ ws: string }>(sql`select id as ws from workspace where slug = 'demo'`);
  const { driver } = await one<{ driver: string }>(sql`select id::text as driver from "user" where email = ${DRIVER}`);
  const { company } = await one<{ company: number }>(
    sql`select id as company from company where workspace_id = ${ws}::uuid and is_customer order by id limit 1`,
  );
  const { product } = await one<{ product: number }>(
    sql`select id as product from product where workspace_id = ${ws}::uuid order by id limit 1`,
  );
  const t0 = performance.now();
  // In batches of 20,000 (one statement each keeps PGlite's memory in bounds).
  for (let done = 0; done < ORDERS; done += 20_000) {
    const n = Math.min(20_000, ORDERS - done);
    await db.execute(sql`with h as (
        insert into delivery_order (workspace_id, number, status, doc_date, company_id, driver_id, planned_date,
          stop_seq, subtotal, net_total, total, base_total)
        select ${ws}::uuid, 'BENCH-' || (${done} + g), 'to_bill', current_date - (g % 730),
          ${company}, case when g % 20 = 0 then ${driver}::uuid end, current_date - ((g / 20) % 730),
          case when g % 20 = 0 then g end, 100, 100, 109, 109
        from generate_series(1, ${n}) g
        returning id)
      insert into delivery_order_line (workspace_id, delivery_order_id, line_no, product_id, description, qty,
        unit_price, line_total, net_amount)
      select ${ws}::uuid, h.id, 1, ${product}, 'Bench goods', 3, 33.33, 100, 100 from h`);
  }
  await db.execute(sql`analyze delivery_order`);
  await db.execute(sql`analyze delivery_order_line`);
  const made = await one<{ n: number; mine: number }>(sql`select count(*)::int as n,
      count(*) filter (where driver_id = ${driver}::uuid)::int as mine
    from delivery_order where workspace_id = ${ws}::uuid`);
  const busiest = await one<{ day: string; stops: number }>(sql`select planned_date::text as day,
      count(*)::int as stops from delivery_order where workspace_id = ${ws}::uuid and driver_id = ${driver}::uuid
      and status = 'to_bill' group by planned_date order by count(*) desc, planned_date desc limit 1`);
  console.log(
    `driver trip bench on ${server.databaseUrl ? "PostgreSQL" : "PGlite"}: ${made.n.toLocaleString()} delivery orders ` +
      `(${made.mine.toLocaleString()} the driver's) made in ${((performance.now() - t0) / 1000).toFixed(1)} s; ` +
      `${REQUESTS} requests each, node ${process.version}`,
  );

  const trip = async (date: string) => {
    const res = await restFetch(DRIVER, "rpc/delivery_trip", { method: "POST", body: JSON.stringify({ date }) });
    if (res.status !== 200) throw new Error(`delivery_trip: ${res.status} ${res.text}`);
    return res.body as { stops: Array<{ id: number }> };
  };
  const stops = (await trip(busiest.day)).stops;
  await timed(`delivery_trip, a day of ${stops.length} stops`, REQUESTS, () => trip(busiest.day));
  await timed("delivery_trip, a day without stops", REQUESTS, () => trip("2001-01-01"));
  const ids = stops.map((s) => Number(s.id));
  await timed(`delivery_reorder of ${ids.length} stops`, REQUESTS, async (i) => {
    const order = i % 2 ? [...ids].reverse() : ids;
    const res = await restFetch(DRIVER, "rpc/delivery_reorder", {
      method: "POST",
      body: JSON.stringify({ date: busiest.day, ids: order }),
    });
    if (res.status !== 200) throw new Error(`delivery_reorder: ${res.status} ${res.text}`);
  });
} finally {
  await server.close();
}
