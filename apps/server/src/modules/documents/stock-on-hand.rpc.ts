import { decideResource } from "@workmetrics/domain";
import { COMMANDS } from "@workmetrics/domain/commands";
import { CATALOG } from "@workmetrics/domain/resources/catalog";
import { sql } from "drizzle-orm";
import { memberOf, refusalError } from "../../platform/rest/access.ts";
import { implement } from "../../platform/rest/rpc/command.ts";

// stock_on_hand {product_ids?, location_id?} (issue 10 §2 "stock on hand … in the line picker and on the
// quotation"): Σ stock_move.qty per product and location, this workspace's only; locations where a product nets to
// zero are left out. Whoever may read products may read their stock.

export const stockOnHand = implement(COMMANDS.stock_on_hand, {
  run: async (tx, args, caller) => {
    const d = decideResource(memberOf(caller), CATALOG.product, "read");
    if (!d.allowed) throw refusalError(d);
    const ws = caller.workspaceId as string;
    if (args.product_ids && args.product_ids.length === 0) return [];
    const products = args.product_ids
      ? sql`and product_id in (${sql.join(
          args.product_ids.map((p) => sql`${p}`),
          sql`, `,
        )})`
      : sql``;
    const location = args.location_id ? sql`and location_id = ${args.location_id}` : sql``;
    const res = await tx.execute(sql`
      select product_id, location_id, sum(qty)::text as qty from stock_move
      where workspace_id = ${ws}::uuid ${products} ${location}
      group by product_id, location_id having sum(qty) <> 0
      order by product_id, location_id`);
    return (res.rows as Array<{ product_id: unknown; location_id: unknown; qty: string }>).map((r) => ({
      product_id: Number(r.product_id),
      location_id: Number(r.location_id),
      qty: r.qty,
    }));
  },
});
