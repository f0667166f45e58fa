import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";

// Where the stock figures come from beyond stock_move (issue 11 "Stock"): the workspace's system locations (goods in
// transit between two locations and goods lent to customers are nobody's to sell) and open purchase orders.

export type SystemLocations = { transit: number[]; onLoan: number[] };

export async function systemLocations(tx: Tx, ws: string): Promise<SystemLocations> {
  const res = await tx.execute(sql`select kind, location_id from system_location where workspace_id = ${ws}::uuid`);
  const rows = res.rows as Array<{ kind: string; location_id: number | string }>;
  const of = (kind: string) => rows.filter((r) => r.kind === kind).map((r) => Number(r.location_id));
  return { transit: of("transit"), onLoan: of("on_loan") };
}

export const idArray = (ids: readonly number[]) => sql`${`{${ids.join(",")}}`}::bigint[]`;

// What open purchase orders still bring (qty − qty_received per goods line, never below 0), per product, delivered
// to `locationId` when given. A submitted order counts until it is completed, closed or cancelled (ERPNext's
// ordered quantity).
export const onOrder = (ws: string, locationId: number | null, products: SQL = sql``): SQL =>
  sql`select l.product_id, sum(greatest(l.qty - l.qty_received, 0)) as qty
    from purchase_order o join purchase_order_line l on l.workspace_id = o.workspace_id and l.purchase_order_id = o.id
    where o.workspace_id = ${ws}::uuid and o.status not in ('draft', 'completed', 'closed', 'cancelled')
      and l.product_id is not null ${products} ${locationId ? sql`and o.location_id = ${locationId}` : sql``}
    group by l.product_id`;

// The stock moves `where` picks, each with the day it counts from: the day of the journal entry its document posted
// with it (a document's date, the day a cancel reversed it for the moves that undo an earlier one), else the day it
// was written (a transfer posts nothing). stock_move keeps only when it was written, and documents are often dated
// earlier, so the books and the stock agree on any day this way.
export const datedMoves = (ws: string, where: SQL): SQL => sql`pm as (
    select m.*, first_value(m.qty) over (partition by m.doc_type, m.doc_id, m.doc_line_id, m.product_id, m.location_id
      order by m.id) as first_qty
    from stock_move m where m.workspace_id = ${ws}::uuid ${where}
  ), je as (
    select e.source_type, e.source_id, min(e.entry_date) filter (where e.reversal_of is null) as posted,
      max(e.entry_date) filter (where e.reversal_of is not null) as reversed
    from journal_entry e where e.workspace_id = ${ws}::uuid
      and (e.source_type, e.source_id) in (select distinct doc_type, doc_id from pm)
    group by e.source_type, e.source_id
  ), dm as (
    select pm.*, coalesce(case when sign(pm.qty) <> sign(pm.first_qty) then je.reversed end, je.posted,
      pm.created_at::date) as move_date, je.posted is not null as posted
    from pm left join je on je.source_type = pm.doc_type and je.source_id = pm.doc_id
  )`;
