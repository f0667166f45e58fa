import { Dec, dec, money } from "@workmetrics/domain/documents/decimal";
import type Decimal from "decimal.js";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { holdingProducts } from "../../platform/documents/stock.ts";

// Issue 11: what received goods are worth and what a product then costs.

// A purchase order line's net unit price in base currency — the line after its discount and its share of the
// order's discount (net_amount / qty) at the order's rate — to four decimals, as stock moves carry costs. Goods come
// into stock at it and the supplier invoice clears Stock Received But Not Billed at it.
export function receiptUnitCost(qty: string, net: string, rate: string): string {
  const q = dec(qty);
  const unit = q.isZero() ? new Dec(0) : dec(net).dividedBy(q).times(dec(rate));
  return unit.toDecimalPlaces(4, Dec.ROUND_HALF_UP).toFixed(4);
}

export type ValuedMove = { product_id: number; qty: string; unit_cost: string };

// The moving average (issue 11): a product's cost becomes (on hand × cost + qty × price) / (on hand + qty), on hand
// across every location before the move. Nothing (or less) on hand: the price itself. `sign` −1 takes a receipt
// back out of the average when it is cancelled (the cost stays if nothing would be left). Products are locked in id
// order first, as stock moves lock them, so two receipts of one product queue.
export async function applyMovingAverage(
  tx: Tx,
  ws: string,
  moves: readonly ValuedMove[],
  sign: 1 | -1,
): Promise<void> {
  const totals = new Map<number, { qty: Decimal; value: Decimal }>();
  for (const m of moves) {
    const t = totals.get(m.product_id) ?? { qty: new Dec(0), value: new Dec(0) };
    const qty = dec(m.qty);
    totals.set(m.product_id, { qty: t.qty.plus(qty), value: t.value.plus(qty.times(dec(m.unit_cost))) });
  }
  if (totals.size === 0) return;
  const list = `{${[...totals.keys()].sort((a, b) => a - b).join(",")}}`;
  const res = await tx.execute(sql`select p.id, p.cost::text as cost,
      coalesce((select sum(m.qty) from stock_move m where m.workspace_id = p.workspace_id and m.product_id = p.id), 0)::text
        as on_hand
    from product p where p.workspace_id = ${ws}::uuid and p.id = any(${list}::bigint[]) order by p.id for update`);
  holdingProducts(tx, totals.keys()); // the stock moves that follow need not lock them again
  const next: Array<[number, string]> = [];
  for (const r of res.rows as Array<{ id: number | string; cost: string; on_hand: string }>) {
    const t = totals.get(Number(r.id));
    if (!t || t.qty.isZero()) continue;
    const onHand = dec(r.on_hand);
    const cost = dec(r.cost);
    const after = onHand.plus(t.qty.times(sign));
    let average: Decimal;
    if (sign > 0)
      average = onHand.lessThanOrEqualTo(0)
        ? t.value.dividedBy(t.qty)
        : onHand.times(cost).plus(t.value).dividedBy(after);
    else average = after.greaterThan(0) ? onHand.times(cost).minus(t.value).dividedBy(after) : cost;
    next.push([Number(r.id), money(Dec.max(average, 0))]);
  }
  if (next.length === 0) return;
  await tx.execute(sql`update product p set cost = v.cost, updated_at = now()
    from unnest(${`{${next.map(([id]) => id).join(",")}}`}::bigint[], ${`{${next.map(([, c]) => c).join(",")}}`}::numeric[])
      as v(id, cost)
    where p.workspace_id = ${ws}::uuid and p.id = v.id`);
}
