import { COMMANDS } from "@workmetrics/domain/commands";
import { dec, plain } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import { invalid } from "../../platform/documents/refusals.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { reorderQuantity } from "./stock-figures.ts";
import { requireLocation, requireStockAccess, stockLevels } from "./stock-levels.rpc.ts";
import { draftPurchaseOrders, type Want } from "./stock-purchase.ts";
import { idArray } from "./stock-sources.ts";

// reorder_draft_purchase_orders {location_id?, search?, product_ids?} (issue 11 "Stock"): what the stock levels
// page's "to reorder" filter shows (there, matching the search, or of those products), drafted as purchase orders —
// one per preferred supplier and location, a line per reorder level: its reorder quantity, or the shortfall below
// the minimum when that is more and the level is the product's only one considered. A product short overall is
// reordered at each of its levels; filter by a location to reorder there only. Levels without a preferred supplier
// are answered as skipped, and so are those already on a draft for the same supplier and location. The save is the engine's, so it needs purchase_order.create (a warehouse clerk sees what
// to reorder, a buyer drafts).

export const reorderDraftsRpc = implement(COMMANDS.reorder_draft_purchase_orders, {
  run: async (tx, a, caller) => {
    const ws = requireStockAccess(caller);
    if (a.location_id) await requireLocation(tx, ws, a.location_id);
    const short = await stockLevels(tx, ws, {
      location_id: a.location_id,
      search: a.search || undefined,
      product_ids: a.product_ids,
      to_reorder: true,
      limit: 500,
      offset: 0,
    });
    if (!short.rows.length) throw invalid("Nothing is below its reorder level", "location_id");
    const levels = await tx.execute(sql`select r.product_id, r.location_id, r.supplier_id, r.reorder_qty::text as qty,
        p.name as product
      from reorder_level r join product p on p.workspace_id = r.workspace_id and p.id = r.product_id
      where r.workspace_id = ${ws}::uuid and r.product_id = any(${idArray(short.rows.map((r) => r.product_id))})
        ${a.location_id ? sql`and r.location_id = ${a.location_id}` : sql``}
      order by p.name, r.location_id`);
    const rows = levels.rows as Array<{
      product_id: number | string;
      location_id: number | string;
      supplier_id: number | string | null;
      qty: string;
      product: string;
    }>;
    const byProduct = new Map(short.rows.map((r) => [r.product_id, r]));
    // A level already on a buyer's draft for the same supplier and location is not drafted twice (a draft is not
    // on order yet, so the product stays on the list until it is submitted).
    const drafts = await tx.execute(sql`select distinct o.company_id, o.location_id, l.product_id
      from purchase_order o join purchase_order_line l on l.workspace_id = o.workspace_id and l.purchase_order_id = o.id
      where o.workspace_id = ${ws}::uuid and o.status = 'draft'
        and l.product_id = any(${idArray(short.rows.map((r) => r.product_id))})`);
    const drafted = new Set(
      (drafts.rows as Array<Record<string, number | string>>).map(
        (d) => `${d.company_id}:${d.location_id}:${d.product_id}`,
      ),
    );
    const wants: Want[] = [];
    const skipped: Array<{ product_id: number; product: string; reason: string }> = [];
    for (const r of rows) {
      const product = Number(r.product_id);
      if (r.supplier_id == null) {
        skipped.push({ product_id: product, product: r.product, reason: "No preferred supplier" });
        continue;
      }
      if (drafted.has(`${r.supplier_id}:${r.location_id}:${product}`)) {
        skipped.push({ product_id: product, product: r.product, reason: "Already on a draft purchase order" });
        continue;
      }
      const level = byProduct.get(product);
      const only = rows.filter((x) => Number(x.product_id) === product).length === 1;
      const qty = level ? reorderQuantity(r.qty, level, only) : dec(r.qty);
      wants.push({
        product_id: product,
        qty: plain(qty),
        supplier_id: Number(r.supplier_id),
        location_id: Number(r.location_id),
      });
    }
    if (!wants.length) {
      const why = [...new Set(skipped.map((x) => x.reason.toLowerCase()))].join("; ");
      throw invalid(`Nothing to draft: ${skipped.map((x) => x.product).join(", ")} (${why})`, "supplier_id");
    }
    const created = await draftPurchaseOrders(tx, caller, wants, "Drafted from the reorder levels");
    return { created, skipped };
  },
});
