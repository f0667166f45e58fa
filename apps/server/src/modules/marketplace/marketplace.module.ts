import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { asWorkspace } from "../../platform/documents/as-workspace.ts";
import { convertDocument } from "../../platform/documents/commands.ts";
import { addEffect, type Effect } from "../../platform/documents/registry.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import {
  marketplaceAttachment,
  marketplaceMessageSend,
  marketplaceThreadMessages,
  marketplaceThreads,
} from "./chat.rpc.ts";
import {
  marketplaceOrderAccept,
  marketplaceOrderCancel,
  marketplaceOrderPlace,
  marketplaceOrderRate,
  marketplaceOrderReject,
  marketplaceOrders,
  syncProgress,
} from "./orders.rpc.ts";
import { wsOf } from "./parties.ts";
import {
  marketplaceListingPhoto,
  marketplaceListingPhotoAdd,
  marketplaceListingPhotoOrder,
  marketplaceListingPhotoRemove,
} from "./photos.rpc.ts";
import {
  marketplaceAccountMine,
  marketplaceAccountSave,
  marketplaceListingSave,
  marketplaceSearch,
} from "./shop.rpc.ts";

// Issue 23: the marketplace (Premium). Its commands, and what each side's own documents do to a marketplace order:
// a delivery, an invoice, a receipt or a supplier invoice submitted moves the order's progress (payments, which are
// no transition, are counted whenever the orders are read), and the seller's invoice reaches the buyer as a draft
// supplier invoice made from the buyer's purchase order, to check against the receipt (the three-way check).

// The caller's workspace takes part in an accepted marketplace order (cheap: most workspaces have none).
async function trades(tx: Tx, caller: Caller): Promise<boolean> {
  const ws = wsOf(caller);
  const r = await tx.execute(sql`select 1 from marketplace_sales_order where status = 'accepted'
    and ${ws}::uuid in (buyer_workspace_id, seller_workspace_id) limit 1`);
  return r.rows.length > 0;
}

const progress: Effect = async (tx, caller) => {
  if (await trades(tx, caller)) await syncProgress(tx, caller);
};

// The seller's invoice of a marketplace sales order → a draft supplier invoice in the buyer's books.
const invoiceToBuyer: Effect = async (tx, caller, _spec, doc) => {
  if (!(await trades(tx, caller))) return;
  const ws = wsOf(caller);
  const ids = doc.lines.map((l) => Number(l.source_line_id)).filter((n) => n > 0);
  if (!ids.length) return;
  const list = `{${ids.join(",")}}`;
  // The invoice's lines come from the sales order's lines, or from a delivery's made from them.
  const found = await tx.execute(sql`select distinct o.id, o.number, o.buyer_workspace_id::text as buyer,
      o.purchase_order_id from marketplace_sales_order o
    join sales_order_line sl on sl.workspace_id = o.seller_workspace_id and sl.sales_order_id = o.sales_order_id
    where o.seller_workspace_id = ${ws}::uuid and o.status = 'accepted' and o.purchase_order_id is not null
      and (sl.id = any(${list}::bigint[]) or exists (select 1 from delivery_order_line dl
        where dl.workspace_id = sl.workspace_id and dl.source_line_id = sl.id and dl.id = any(${list}::bigint[])))`);
  for (const o of found.rows as Array<{ id: number; number: string; buyer: string; purchase_order_id: number }>) {
    await asWorkspace(tx, o.buyer, caller, async (there) => {
      const acting: Caller = { ...there, permissions: ["supplier_invoice.*", "purchase_order.read"] };
      // A purchase order the buyer has not yet submitted (held for approval) bills nothing yet: the buyer's
      // own convert makes the bill then.
      const po = (
        await tx.execute(sql`select status from purchase_order where workspace_id = ${o.buyer}::uuid
          and id = ${o.purchase_order_id}`)
      ).rows[0] as { status: string } | undefined;
      if (!po || po.status === "draft" || po.status === "cancelled") return;
      await tx
        .transaction(async (sp) => {
          await convertDocument(sp as unknown as Tx, acting, {
            type: "purchase_order",
            id: Number(o.purchase_order_id),
            to: "supplier_invoice",
            header: {
              supplier_invoice_number: `${o.number}-${doc.header.id}`,
              notes: `Invoiced on the marketplace, order ${o.number}`,
            },
          });
        })
        .catch(() => undefined);
    });
  }
};

export function registerMarketplace(): void {
  registerRpc(
    marketplaceAccountSave,
    marketplaceAccountMine,
    marketplaceListingSave,
    marketplaceListingPhotoAdd,
    marketplaceListingPhotoRemove,
    marketplaceListingPhotoOrder,
    marketplaceListingPhoto,
    marketplaceSearch,
    marketplaceOrderPlace,
    marketplaceOrderAccept,
    marketplaceOrderReject,
    marketplaceOrderCancel,
    marketplaceOrderRate,
    marketplaceOrders,
    marketplaceMessageSend,
    marketplaceThreads,
    marketplaceThreadMessages,
    marketplaceAttachment,
  );
  addEffect("invoice", "submit", invoiceToBuyer);
  for (const type of ["delivery_order", "invoice", "supplier_delivery_order", "supplier_invoice"]) {
    addEffect(type, "submit", progress);
    addEffect(type, "cancel", progress);
  }
}
