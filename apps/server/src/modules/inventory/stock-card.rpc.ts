import { COMMANDS } from "@workmetrics/domain/commands";
import type { StockCardRow } from "@workmetrics/domain/commands/inventory";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { documentSpec } from "../../platform/documents/registry.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { requireLocation, requireStockAccess } from "./stock-levels.rpc.ts";
import { datedMoves } from "./stock-sources.ts";

// stock_card {product_id, location_id?, limit?, offset?} (issue 11 "Stock", ERPNext's Stock Ledger): every move of a
// product in the order it counts (its day, then as written), with the document that made it, in and out, the
// running balance and the unit cost; paged, the balance carried over from the earlier pages.

// The number of each move's document, per type in one query each: stock_move names its document by type and id
// (DESIGN §2.3.1), and a document type's table is its name. A move of something that is not a document (the demo's
// opening stock) has none.
async function numbers(tx: Tx, ws: string, rows: StockCardRow[]): Promise<void> {
  const byType = new Map<string, number[]>();
  for (const r of rows) byType.set(r.doc_type, [...(byType.get(r.doc_type) ?? []), r.doc_id]);
  for (const [type, ids] of byType) {
    try {
      documentSpec(type);
    } catch {
      continue;
    }
    const res = await tx.execute(sql`select id, number from ${sql.identifier(type)}
      where workspace_id = ${ws}::uuid and id = any(${`{${[...new Set(ids)].join(",")}}`}::bigint[])`);
    const found = new Map(
      (res.rows as Array<{ id: number | string; number: string | null }>).map((d) => [Number(d.id), d.number]),
    );
    for (const r of rows) if (r.doc_type === type) r.number = found.get(r.doc_id) ?? null;
  }
}

export const stockCardRpc = implement(COMMANDS.stock_card, {
  run: async (tx, a, caller) => {
    const ws = requireStockAccess(caller);
    const product = (
      await tx.execute(sql`select id, sku, name, unit, cost::text as cost from product
        where workspace_id = ${ws}::uuid and id = ${a.product_id}`)
    ).rows[0] as { id: number; sku: string; name: string; unit: string; cost: string } | undefined;
    if (!product) throw new RestError(404, "PGRST116", `There is no product ${a.product_id} in this workspace`);
    if (a.location_id) await requireLocation(tx, ws, a.location_id);
    const where = sql`and m.product_id = ${a.product_id} ${a.location_id ? sql`and m.location_id = ${a.location_id}` : sql``}`;
    const res = await tx.execute(sql`with ${datedMoves(ws, where)}, card as (
        select dm.id, dm.move_date, dm.doc_type, dm.doc_id, dm.location_id, dm.qty, dm.unit_cost,
          sum(dm.qty) over (order by dm.move_date, dm.id) as balance, count(*) over () as total
        from dm
      )
      select c.id, c.move_date::text as date, c.doc_type, c.doc_id, c.location_id, l.name as location,
        case when c.qty > 0 then c.qty::text end as qty_in, case when c.qty < 0 then (-c.qty)::text end as qty_out,
        c.balance::numeric(14,3)::text as balance, c.unit_cost::text as unit_cost, c.total
      from card c join location l on l.workspace_id = ${ws}::uuid and l.id = c.location_id
      order by c.move_date, c.id limit ${a.limit} offset ${a.offset}`);
    const raw = res.rows as Array<Record<string, unknown>>;
    const rows: StockCardRow[] = raw.map((r) => ({
      id: Number(r.id),
      date: String(r.date),
      doc_type: String(r.doc_type),
      doc_id: Number(r.doc_id),
      number: null,
      location_id: Number(r.location_id),
      location: String(r.location),
      qty_in: (r.qty_in as string | null) ?? null,
      qty_out: (r.qty_out as string | null) ?? null,
      balance: String(r.balance),
      unit_cost: String(r.unit_cost),
    }));
    await numbers(tx, ws, rows);
    let total = raw.length ? Number(raw[0].total) : 0;
    if (!raw.length && a.offset > 0) {
      const n = await tx.execute(
        sql`select count(*)::int as n from stock_move m where m.workspace_id = ${ws}::uuid ${where}`,
      );
      total = Number((n.rows[0] as { n: number }).n);
    }
    return { product: { ...product, id: Number(product.id) }, rows, total };
  },
});
