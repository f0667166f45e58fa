import {
  purchaseOrder,
  purchaseOrderLine,
  supplierDeliveryOrder,
  supplierDeliveryOrderLine,
} from "@workmetrics/domain/db/purchasing-schema";
import { SUPPLIER_RECEIPT_RULE } from "@workmetrics/domain/documents/postings";
import { sql } from "drizzle-orm";
import { invalid } from "../../platform/documents/refusals.ts";
import type { PrepareConvert, PrepareSave } from "../../platform/documents/registry.ts";
import { rowOf, rowsOf } from "../../platform/documents/rows.ts";
import type { StockMove } from "../../platform/documents/stock.ts";
import { lineLocation, stockJournalEffects } from "../../platform/documents/stock-effects.ts";
import type { Row } from "../../platform/documents/store.ts";
import { applyMovingAverage, receiptUnitCost } from "./costs.ts";
import { recheckInvoices } from "./supplier-invoice.effects.ts";

// Issue 11: what a supplier delivery order does besides its status (the engine has checked each line against what
// is left to receive on the order and recomputed its qty_received). Submit moves each product's cost to the moving
// average, puts the accepted quantity into the line's location (or the header's) at the order's price in base
// currency, posts Dr 1200 Stock / Cr 2100 Stock Received But Not Billed, and checks again the supplier invoices that
// were waiting for these goods. Cancel takes the receipt back out of the average, writes the opposite moves (refused
// if the goods are no longer there) and the reversing entry (stock-effects.ts).

export const SUPPLIER_DELIVERY_ORDER_EFFECTS = stockJournalEffects({
  rule: SUPPLIER_RECEIPT_RULE,
  verb: "receive",
  moves: async (_tx, _caller, _spec, doc) => {
    const receipt = rowOf(supplierDeliveryOrder, doc.header);
    // The order's lines, as the engine locked them to draw qty_received.
    const order = doc.sources?.get(`purchase_order:${receipt.source_id}`);
    const rate = order?.header ? rowOf(purchaseOrder, order.header).rate : "1";
    const costs = new Map(
      rowsOf(purchaseOrderLine, order?.lines ?? []).map((l) => [l.id, receiptUnitCost(l.qty, l.net_amount, rate)]),
    );
    const lines = rowsOf(supplierDeliveryOrderLine, doc.lines);
    return lines
      .filter((l) => l.product_id != null)
      .map((l): StockMove => {
        const n = lines.indexOf(l) + 1;
        const location = lineLocation(doc, l, "is received into");
        const cost = l.source_line_id == null ? undefined : costs.get(l.source_line_id);
        if (cost == null) throw invalid(`Line ${n} is not on the purchase order`, `lines.${n - 1}.source_line_id`);
        return {
          product_id: Number(l.product_id),
          location_id: location,
          qty: l.qty,
          unit_cost: cost,
          doc_line_id: l.id,
        };
      });
  },
  beforeMoves: (tx, caller, _doc, moves) => applyMovingAverage(tx, caller.workspaceId as string, moves, 1),
  afterPosting: (tx, caller, doc) =>
    recheckInvoices(tx, caller, Number(rowOf(supplierDeliveryOrder, doc.header).source_id)),
  // The receipt taken back out of the average before its moves are reversed.
  beforeCancel: async (tx, caller, spec, doc) => {
    const ws = caller.workspaceId as string;
    const res = await tx.execute(sql`select product_id, sum(qty)::text as qty,
        (sum(qty * unit_cost) / sum(qty))::text as unit_cost
      from stock_move where workspace_id = ${ws}::uuid and doc_type = ${spec.machine.type}
        and doc_id = ${rowOf(supplierDeliveryOrder, doc.header).id}
      group by product_id having sum(qty) <> 0`);
    const held = (res.rows as Array<{ product_id: number | string; qty: string; unit_cost: string }>).map((r) => ({
      product_id: Number(r.product_id),
      qty: r.qty,
      unit_cost: r.unit_cost,
    }));
    await applyMovingAverage(tx, ws, held, -1);
  },
});

// A line rejects nothing unless the storekeeper says so; a rejection without a quantity is a slip.
const withRejected = (draft: { header: Row; lines: Row[] }) => {
  for (const [i, l] of draft.lines.entries()) {
    if (l.reject_reason && !(Number(l.qty_rejected) > 0)) {
      throw invalid(`Line ${i + 1}: give the quantity rejected with the reason`, `lines.${i}.qty_rejected`);
    }
  }
  return { header: draft.header, lines: draft.lines.map((l) => ({ ...l, qty_rejected: l.qty_rejected ?? "0" })) };
};
export const prepareReceiptSave: PrepareSave = async (_tx, _caller, _spec, draft) => withRejected(draft);
export const prepareReceiptConvert: PrepareConvert = async (_tx, _caller, _source, draft) => withRejected(draft);
