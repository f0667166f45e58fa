// Issue 5 item 8's data set, generated into the given (fresh) database, never into the repository: 100 workspaces
// with 1,000,000 products and companies in total, the demo workspace holding 200,000 products (at scale 1).
// Returns the demo workspace's id.
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import type { Db } from "../apps/server/src/platform/db/database.ts";

export async function generateDataset(db: Db, scale: number): Promise<string> {
  const big = Math.round(200_000 * scale); // products of the demo workspace
  const total = Math.round(1_000_000 * scale); // products and companies, all workspaces
  const t = performance.now();
  const demo = ((await db.execute(sql`select id from workspace where slug = 'demo'`)).rows[0] as { id: string }).id;
  await db.execute(sql`insert into workspace (slug, name, tier_id)
    select 'bench-' || g, 'Bench Trading ' || g || ' Pte Ltd', 12 from generate_series(1, 97) g`);
  const spread = total - big;
  await db.execute(sql`insert into category (workspace_id, name)
    select w.id, 'Bench category ' || g from workspace w, generate_series(1, 20) g where w.slug like 'bench-%' or w.id = ${demo}::uuid`);
  // Products: 200,000 in demo, the rest of 60% of the total spread over the other workspaces.
  await db.execute(sql`insert into product (workspace_id, sku, name, category_id, price, cost)
    select ${demo}::uuid, 'BN-' || g, 'Bench item ' || md5(g::text),
      (select min(id) from category where workspace_id = ${demo}::uuid and name = 'Bench category ' || (g % 20 + 1)),
      (g % 997)::numeric / 7, (g % 991)::numeric / 9 from generate_series(1, ${big}) g`);
  const ws = (await db.execute(sql`select id from workspace where slug <> 'demo' order by slug`)).rows as Array<{
    id: string;
  }>;
  const perProducts = Math.floor((spread * 0.5) / ws.length);
  const perCompanies = Math.floor((spread * 0.5) / (ws.length + 1));
  for (const w of ws) {
    await db.execute(sql`insert into product (workspace_id, sku, name, price)
      select ${w.id}::uuid, 'BN-' || g, 'Bench item ' || md5(g::text), (g % 997)::numeric / 7
      from generate_series(1, ${perProducts}) g`);
  }
  // Business UENs (nnnnnnnnX, issue 9 §2), so a bench company still saves through the form.
  for (const w of [{ id: demo }, ...ws]) {
    await db.execute(sql`insert into company (workspace_id, name, uen)
      select ${w.id}::uuid, 'Bench customer ' || md5(g::text), lpad(g::text, 8, '0') || 'B'
      from generate_series(1, ${perCompanies}) g`);
  }
  await db.execute(sql`vacuum analyze`); // visibility map set, so counts are index-only scans
  await db.execute(sql`checkpoint`); // the load's dirty pages written now, not during (a)'s run
  const counts = (
    await db.execute(sql`select (select count(*) from product)::int as p, (select count(*) from company)::int as c,
    (select count(*) from workspace)::int as w`)
  ).rows[0] as { p: number; c: number; w: number };
  console.log(
    `data set: ${counts.w} workspaces, ${counts.p.toLocaleString()} products + ${counts.c.toLocaleString()} companies; demo has ${big.toLocaleString()} products (${((performance.now() - t) / 1000).toFixed(1)} s to generate)`,
  );
  return demo;
}
