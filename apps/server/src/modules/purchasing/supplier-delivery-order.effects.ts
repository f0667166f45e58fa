import { costTotal, SUPPLIER_RECEIPT_RULE } from "@workmetrics/domain/documents/postings";
import { sql } from "drizzle-orm";
import { postJournal, reverseJournals } from "../../platform/documents/ledger.ts";
import { invalid } from "../../platform/documents/refusals.ts";
import type { Effect, PrepareConvert, PrepareSave } from "../../platform/documents/registry.ts";
import { reverseStockMoves, type StockMove, writeStockMoves } from "../../platform/documents/stock.ts";
import { type Row, today } from "../../platform/documents/store.ts";
import { applyMovingAverage, receiptUnitCost } from "./costs.ts";
import { recheckInvoices } from "./supplier-invoice.effects.ts";

// Issue 11: what a supplier delivery order does besides its status (the engine has checked each line against what
// is left to receive on the order and recomputed its qty_received). Submit moves each product's cost to the moving
// average, puts the accepted quantity into the line's location (or the header's) at the order's price in base
// currency, posts Dr 1200 Stock / Cr 2100 Stock Received But Not Billed, and checks again the supplier invoices that
// were waiting for these goods. Cancel takes the receipt back out of the average, writes the opposite moves (refused
// if the goods are no longer there) and the reversing entry.

const submit: Effect = async (tx, caller, spec, doc, step) => {
  const ws = caller.workspaceId as string;
  const goods = doc.lines.filter((l) => l.product_id != null);
  // The order's lines, as the engine locked them to draw qty_received.
  const order = doc.sources?.get(`purchase_order:${doc.header.source_id}`);
  const rate = String(order?.header?.rate ?? "1");
  const costs = new Map(
    (order?.lines ?? []).map((l) => [Number(l.id), receiptUnitCost(String(l.qty), String(l.net_amount), rate)]),
  );
  const moves: StockMove[] = goods.map((l) => {
    const n = doc.lines.indexOf(l) + 1;
    const location = l.location_id ?? doc.header.location_id;
    if (location == null) throw invalid(`Choose the location line ${n} is received into`, `lines.${n - 1}.location_id`);
    const cost = costs.get(Number(l.source_line_id));
    if (cost == null) throw invalid(`Line ${n} is not on the purchase order`, `lines.${n - 1}.source_line_id`);
    return {
      product_id: Number(l.product_id),
      location_id: Number(location),
      qty: String(l.qty),
      unit_cost: cost,
      doc_line_id: Number(l.id),
    };
  });
  await applyMovingAverage(tx, ws, moves, 1);
  const docRef = { type: spec.machine.type, id: Number(doc.header.id) };
  await writeStockMoves(tx, caller, docRef, moves, "receive");
  await postJournal(
    tx,
    caller,
    { ...docRef, number: step.number, date: String(doc.header.doc_date) },
    SUPPLIER_RECEIPT_RULE,
    { cost_total: costTotal(moves) },
  );
  await recheckInvoices(tx, caller, Number(doc.header.source_id));
};

const cancel: Effect = async (tx, caller, spec, doc, step) => {
  if (step.from === spec.machine.initial) return;
  const ws = caller.workspaceId as string;
  const docRef = { type: spec.machine.type, id: Number(doc.header.id) };
  const res = await tx.execute(sql`select product_id, sum(qty)::text as qty,
      (sum(qty * unit_cost) / sum(qty))::text as unit_cost
    from stock_move where workspace_id = ${ws}::uuid and doc_type = ${docRef.type} and doc_id = ${docRef.id}
    group by product_id having sum(qty) <> 0`);
  const held = (res.rows as Array<{ product_id: number | string; qty: string; unit_cost: string }>).map((r) => ({
    product_id: Number(r.product_id),
    qty: r.qty,
    unit_cost: r.unit_cost,
  }));
  await applyMovingAverage(tx, ws, held, -1);
  await reverseStockMoves(tx, caller, docRef);
  await reverseJournals(tx, caller, {
    ...docRef,
    number: (doc.header.number as string | null) ?? null,
    date: await today(tx),
  });
};

export const SUPPLIER_DELIVERY_ORDER_EFFECTS = { submit, cancel };

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
