import { deliveryOrderLine } from "@workmetrics/domain/db/selling-schema";
import { DELIVERY_COGS_RULE } from "@workmetrics/domain/documents/postings";
import { sql } from "drizzle-orm";
import { rowsOf } from "../../platform/documents/rows.ts";
import type { StockMove } from "../../platform/documents/stock.ts";
import { lineLocation, stockJournalEffects } from "../../platform/documents/stock-effects.ts";

// Issue 10 §2: what a delivery order does besides its status. Submit takes the goods out of stock at each
// product's cost now (−qty moves from the line's location, or the header's) and posts Dr 5000 Cost of Goods Sold /
// Cr 1200 Stock In Hand for their value; cancel writes the opposite moves and the reversing entry
// (stock-effects.ts).

export const DELIVERY_ORDER_EFFECTS = stockJournalEffects({
  rule: DELIVERY_COGS_RULE,
  verb: "deliver",
  moves: async (tx, caller, _spec, doc) => {
    const goods = rowsOf(deliveryOrderLine, doc.lines).filter((l) => l.product_id != null);
    const ids = `{${[...new Set(goods.map((l) => l.product_id))].join(",")}}`;
    const res = await tx.execute(sql`select id, cost::text as cost from product
      where workspace_id = ${caller.workspaceId}::uuid and id = any(${ids}::bigint[])`);
    const cost = new Map((res.rows as Array<{ id: number | string; cost: string }>).map((r) => [Number(r.id), r.cost]));
    return goods.map(
      (l): StockMove => ({
        product_id: Number(l.product_id),
        location_id: lineLocation(doc, l, "leaves from"),
        qty: `-${l.qty}`,
        unit_cost: cost.get(Number(l.product_id)) ?? "0",
        doc_line_id: l.id,
      }),
    );
  },
});
