import { goodsReturnNote, goodsReturnNoteLine } from "@workmetrics/domain/db/returns-schema";
import { GOODS_RETURN_RULE } from "@workmetrics/domain/documents/postings";
import { sql } from "drizzle-orm";
import { invalid } from "../../platform/documents/refusals.ts";
import type { Effect } from "../../platform/documents/registry.ts";
import { rowOf, rowsOf } from "../../platform/documents/rows.ts";
import type { StockMove } from "../../platform/documents/stock.ts";
import { lineLocation, stockJournalEffects } from "../../platform/documents/stock-effects.ts";
import { cancelSupplierReturn, returnToSupplier } from "../inventory/supplier-return.ts";

// Issue 10 §2: what a goods return note does besides its status (the engine has already checked each line against
// what is left to return on the delivery order and the sales order, and recomputed their qty_returned). Submit puts
// the goods back (+qty moves into the line's location, or the header's) at the cost they left at — the delivery's
// own stock move for that line — and posts Dr 1200 Stock In Hand / Cr 5000 Cost of Goods Sold for their value.
// Cancel writes the opposite moves (refused if the goods are no longer there) and the reversing entry
// (stock-effects.ts); the engine refuses it first while a credit note made from it is issued, naming it. Goods
// going back to a supplier are issue 11's (supplier-return.ts).

const fromCustomer = stockJournalEffects({
  rule: GOODS_RETURN_RULE,
  verb: "return",
  moves: async (tx, caller, _spec, doc) => {
    const lines = rowsOf(goodsReturnNoteLine, doc.lines);
    for (const [i, l] of lines.entries()) {
      if (l.source_line_id == null) {
        throw invalid(`Line ${i + 1} is not on the delivery order the goods came from`, `lines.${i}.source_line_id`);
      }
    }
    const goods = lines.filter((l) => l.product_id != null);
    const delivered = `{${goods.map((l) => l.source_line_id).join(",")}}`;
    const out = await tx.execute(sql`select doc_line_id, unit_cost::text as unit_cost from stock_move
      where workspace_id = ${caller.workspaceId}::uuid and doc_type = 'delivery_order'
        and doc_line_id = any(${delivered}::bigint[]) and qty < 0 order by id`);
    const costOf = new Map(
      (out.rows as Array<{ doc_line_id: number | string; unit_cost: string }>).map((r) => [
        Number(r.doc_line_id),
        r.unit_cost,
      ]),
    );
    return goods.map(
      (l): StockMove => ({
        product_id: Number(l.product_id),
        location_id: lineLocation(doc, l, "comes back to"),
        qty: l.qty,
        unit_cost: costOf.get(Number(l.source_line_id)) ?? l.unit_cost ?? "0",
        doc_line_id: l.id,
      }),
    );
  },
});

const toSupplier = (doc: Parameters<Effect>[3]) => rowOf(goodsReturnNote, doc.header).direction === "supplier";

const submit: Effect = async (tx, caller, spec, doc, step) =>
  toSupplier(doc) ? returnToSupplier(tx, caller, spec, doc, step) : fromCustomer.submit(tx, caller, spec, doc, step);

const cancel: Effect = async (tx, caller, spec, doc, step) => {
  if (step.from === spec.machine.initial) return;
  if (toSupplier(doc)) return cancelSupplierReturn(tx, caller, doc);
  return fromCustomer.cancel(tx, caller, spec, doc, step);
};

export const GOODS_RETURN_NOTE_EFFECTS = { submit, cancel };
