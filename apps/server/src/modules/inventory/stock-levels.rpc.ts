import { decide } from "@workmetrics/domain";
import { COMMANDS } from "@workmetrics/domain/commands";
import type { StockLevel, StockLevelsArgs } from "@workmetrics/domain/commands/inventory";
import { STOCK_ACCESS } from "@workmetrics/domain/reports";
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { type Caller, memberOf, refusalError } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { idArray, onOrder, systemLocations } from "./stock-sources.ts";

// stock_levels {search?, location_id?, to_reorder?, limit?, offset?} (issue 11 "Stock"): one row per stock-tracked
// product — on hand (Σ stock_move), reserved by undelivered sales orders, on order from open purchase orders, on
// loan, available = on hand − reserved, and its reorder level. With location_id the figures that have a location
// (on hand, on order, the reorder level) are that location's; reserved stays the product's: a sales order names no
// location, so what it reserves counts against every one (ERPNext's projected quantity, without a warehouse on the
// order). "To reorder": available + on order < minimum, for products that have a reorder level (there).
// One statement: a page of products first, then their figures, so 200,000 moves cost a page's products' moves.

// Sales orders that still reserve what they have not delivered: submitted and neither finished nor stopped.
const RESERVING = sql`o.status not in ('draft', 'completed', 'closed', 'cancelled')`;

const qty = (e: SQL) => sql`coalesce(${e}, 0)::numeric(14,3)::text`;

export async function stockLevels(
  tx: Tx,
  ws: string,
  a: StockLevelsArgs,
): Promise<{ rows: StockLevel[]; total: number }> {
  const at = (col: SQL) => (a.location_id ? sql`and ${col} = ${a.location_id}` : sql``);
  const sys = await systemLocations(tx, ws);
  const search = a.search ? sql`and (p.name ilike ${`%${a.search}%`} or p.sku ilike ${`%${a.search}%`})` : sql``;
  const only = a.product_ids?.length ? sql`and p.id = any(${`{${a.product_ids.join(",")}}`}::bigint[])` : sql``;
  const leveled = a.to_reorder
    ? sql`and exists (select 1 from reorder_level r where r.workspace_id = p.workspace_id and r.product_id = p.id
        ${at(sql`r.location_id`)})`
    : sql``;
  const page = sql`limit ${a.limit} offset ${a.offset}`;
  const res = await tx.execute(sql`
    with cand as (
      select p.id, p.sku, p.name, p.unit from product p
      where p.workspace_id = ${ws}::uuid and p.is_stock_tracked ${search} ${only} ${leveled}
      order by p.name, p.id ${a.to_reorder ? sql`` : page}
    ), moves as (
      select m.product_id, m.location_id, sum(m.qty) as qty from stock_move m
      where m.workspace_id = ${ws}::uuid and m.product_id in (select id from cand) ${at(sql`m.location_id`)}
      group by m.product_id, m.location_id
    ), reserved as (
      select l.product_id, sum(greatest(l.qty - l.qty_delivered, 0)) as qty
      from sales_order o join sales_order_line l on l.workspace_id = o.workspace_id and l.sales_order_id = o.id
      where o.workspace_id = ${ws}::uuid and ${RESERVING} and l.product_id in (select id from cand)
      group by l.product_id
    ), ordered as (
      ${onOrder(ws, a.location_id ?? null, sql`and l.product_id in (select id from cand)`)}
    ), levels as (
      select r.product_id, sum(r.min_qty) as min_qty, sum(r.reorder_qty) as reorder_qty from reorder_level r
      where r.workspace_id = ${ws}::uuid and r.product_id in (select id from cand) ${at(sql`r.location_id`)}
      group by r.product_id
    ), per as (
      select m.product_id,
        sum(m.qty) filter (where m.location_id <> all(${idArray([...sys.transit, ...sys.onLoan])})) as on_hand,
        sum(m.qty) filter (where m.location_id = any(${idArray(sys.transit)})) as in_transit,
        sum(m.qty) filter (where m.location_id = any(${idArray(sys.onLoan)})) as on_loan,
        json_agg(json_build_object('location_id', m.location_id, 'location', l.name,
          'qty', m.qty::numeric(14,3)::text) order by l.name) filter (where m.qty <> 0) as by_location
      from moves m join location l on l.workspace_id = ${ws}::uuid and l.id = m.location_id
      group by m.product_id
    ), fig as (
      select c.id, c.sku, c.name, c.unit, coalesce(pm.on_hand, 0) as on_hand,
        coalesce(pm.in_transit, 0) as in_transit, coalesce(pm.on_loan, 0) as on_loan, pm.by_location,
        coalesce(r.qty, 0) as reserved, coalesce(o.qty, 0) as on_order, lv.min_qty, lv.reorder_qty
      from cand c
      left join per pm on pm.product_id = c.id
      left join reserved r on r.product_id = c.id
      left join ordered o on o.product_id = c.id
      left join levels lv on lv.product_id = c.id
    ), shown as (
      select f.*, f.on_hand - f.reserved as available,
        coalesce(f.on_hand - f.reserved + f.on_order < f.min_qty, false) as to_reorder
      from fig f
    )
    select s.id as product_id, s.sku, s.name, s.unit, ${qty(sql`s.on_hand`)} as on_hand,
      ${qty(sql`s.reserved`)} as reserved, ${qty(sql`s.on_order`)} as on_order, ${qty(sql`s.on_loan`)} as on_loan,
      ${qty(sql`s.in_transit`)} as in_transit,
      ${qty(sql`s.available`)} as available, s.min_qty::numeric(14,3)::text as min_qty,
      s.reorder_qty::numeric(14,3)::text as reorder_qty, s.to_reorder, s.by_location,
      count(*) over () as total
    from shown s ${a.to_reorder ? sql`where s.to_reorder` : sql``}
    order by s.name, s.id ${a.to_reorder ? page : sql``}`);
  const rows = res.rows as Array<Record<string, unknown>>;
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!a.to_reorder && (rows.length === a.limit || a.offset > 0)) {
    const n = await tx.execute(sql`select count(*)::int as n from product p
      where p.workspace_id = ${ws}::uuid and p.is_stock_tracked ${search} ${only}`);
    total = Number((n.rows[0] as { n: number }).n);
  }
  return {
    total,
    rows: rows.map((r) => ({
      product_id: Number(r.product_id),
      sku: String(r.sku),
      name: String(r.name),
      unit: String(r.unit),
      on_hand: String(r.on_hand),
      reserved: String(r.reserved),
      on_order: String(r.on_order),
      on_loan: String(r.on_loan),
      in_transit: String(r.in_transit),
      available: String(r.available),
      min_qty: r.min_qty == null ? null : String(r.min_qty),
      reorder_qty: r.reorder_qty == null ? null : String(r.reorder_qty),
      to_reorder: Boolean(r.to_reorder),
      by_location: (typeof r.by_location === "string" ? JSON.parse(r.by_location) : (r.by_location ?? [])).map(
        (l: { location_id: number | string; location: string; qty: string }) => ({
          ...l,
          location_id: Number(l.location_id),
        }),
      ),
    })),
  };
}

export function requireStockAccess(caller: Caller): string {
  const d = decide(memberOf(caller), STOCK_ACCESS);
  if (!d.allowed) throw refusalError(d);
  return caller.workspaceId as string;
}

export const stockLevelsRpc = implement(COMMANDS.stock_levels, {
  run: async (tx, a, caller) => {
    const ws = requireStockAccess(caller);
    if (a.location_id) await requireLocation(tx, ws, a.location_id);
    return stockLevels(tx, ws, a);
  },
});

// An id from the caller is checked to be this workspace's (DESIGN §2.2): another's is "no such location", not an
// empty page.
export async function requireLocation(tx: Tx, ws: string, locationId: number): Promise<void> {
  const res = await tx.execute(sql`select 1 from location where workspace_id = ${ws}::uuid and id = ${locationId}`);
  if (!res.rows.length) {
    throw new RestError(404, "PGRST116", `There is no location ${locationId} in this workspace`);
  }
}
