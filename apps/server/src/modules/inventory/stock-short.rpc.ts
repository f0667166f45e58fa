import { COMMANDS } from "@workmetrics/domain/commands";
import { plain } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import { requireDocumentAccess } from "../../platform/documents/access.ts";
import { conflict, invalid, notFound } from "../../platform/documents/refusals.ts";
import { documentSpec } from "../../platform/documents/registry.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { shortOf } from "./stock-figures.ts";
import { requireLocation, stockLevels } from "./stock-levels.rpc.ts";
import { draftPurchaseOrders, type Want } from "./stock-purchase.ts";

// purchase_short {sales_order_id, supplier_id?, location_id?} (issue 11 "Create a PO from sales-order lines that lack
// stock", ERPNext's make_purchase_order from a sales order): for a submitted order, what its lines still have to
// deliver (qty − qty_delivered) beyond what stock can give it — on hand less what other orders reserve, plus what
// open purchase orders bring — drafted as purchase orders per supplier. A product's supplier and deliver-to location
// are its reorder level's unless given; a product with neither is refused with its name, so the page asks.
// Not a document_convert: a purchase order draws nothing from the order's lines and is priced by the supplier.

export const purchaseShortRpc = implement(COMMANDS.purchase_short, {
  run: async (tx, a, caller) => {
    const ws = caller.workspaceId as string;
    const orders = documentSpec("sales_order");
    requireDocumentAccess(caller, orders, "read", "read sales orders");
    const order = (
      await tx.execute(sql`select id, number, status from sales_order
        where workspace_id = ${ws}::uuid and id = ${a.sales_order_id}`)
    ).rows[0] as { id: number; number: string | null; status: string } | undefined;
    if (!order) throw notFound(orders, a.sales_order_id);
    if (["draft", "completed", "closed", "cancelled"].includes(order.status)) {
      throw conflict(
        `Only a submitted sales order still to deliver can be purchased for; this one is ${order.status.replaceAll("_", " ")}`,
      );
    }
    if (a.supplier_id) {
      const s = await tx.execute(sql`select 1 from company where workspace_id = ${ws}::uuid and id = ${a.supplier_id}`);
      if (!s.rows.length) throw invalid(`There is no company ${a.supplier_id} in this workspace`, "supplier_id");
    }
    if (a.location_id) await requireLocation(tx, ws, a.location_id);
    const need = await tx.execute(sql`select l.product_id, sum(greatest(l.qty - l.qty_delivered, 0))::text as qty,
        (select r.supplier_id from reorder_level r where r.workspace_id = l.workspace_id and r.product_id = l.product_id
          and r.supplier_id is not null order by r.id limit 1) as supplier_id,
        (select r.location_id from reorder_level r where r.workspace_id = l.workspace_id and r.product_id = l.product_id
          order by r.supplier_id is null, r.id limit 1) as location_id
      from sales_order_line l join product p on p.workspace_id = l.workspace_id and p.id = l.product_id
      where l.workspace_id = ${ws}::uuid and l.sales_order_id = ${a.sales_order_id} and p.is_stock_tracked
      group by l.workspace_id, l.product_id having sum(greatest(l.qty - l.qty_delivered, 0)) > 0`);
    const needs = need.rows as Array<{
      product_id: number | string;
      qty: string;
      supplier_id: number | string | null;
      location_id: number | string | null;
    }>;
    const levels = needs.length
      ? await stockLevels(tx, ws, { product_ids: needs.map((n) => Number(n.product_id)), limit: 500, offset: 0 })
      : { rows: [] };
    const stock = new Map(levels.rows.map((r) => [r.product_id, r]));
    const shortages = needs.flatMap((n) => {
      const s = stock.get(Number(n.product_id));
      if (!s) return [];
      const short = shortOf(n.qty, s);
      return short.greaterThan(0) ? [{ n, name: s.name, short }] : [];
    });
    const label = order.number ?? `#${order.id}`;
    if (!shortages.length) {
      throw conflict(`Stock and open purchase orders cover every line of sales order ${label}`);
    }
    const noSupplier = shortages.filter((x) => !a.supplier_id && x.n.supplier_id == null).map((x) => x.name);
    if (noSupplier.length) {
      throw invalid(`Choose the supplier to buy ${noSupplier.join(", ")} from`, "supplier_id");
    }
    const noLocation = shortages.filter((x) => !a.location_id && x.n.location_id == null).map((x) => x.name);
    if (noLocation.length) {
      throw invalid(`Choose where ${noLocation.join(", ")} should be delivered`, "location_id");
    }
    const wants: Want[] = shortages.map((x) => ({
      product_id: Number(x.n.product_id),
      qty: plain(x.short),
      supplier_id: Number(a.supplier_id ?? x.n.supplier_id),
      location_id: Number(a.location_id ?? x.n.location_id),
    }));
    const created = await draftPurchaseOrders(tx, caller, wants, `For sales order ${label}`);
    return {
      created,
      short: shortages.map((x) => ({ product_id: Number(x.n.product_id), product: x.name, qty: plain(x.short) })),
    };
  },
});
