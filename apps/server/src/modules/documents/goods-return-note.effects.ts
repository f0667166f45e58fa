import { costTotal, GOODS_RETURN_RULE } from "@workmetrics/domain/documents/postings";
import { sql } from "drizzle-orm";
import { postJournal, reverseJournals } from "../../platform/documents/ledger.ts";
import { invalid } from "../../platform/documents/refusals.ts";
import type { Effect } from "../../platform/documents/registry.ts";
import { reverseStockMoves, type StockMove, writeStockMoves } from "../../platform/documents/stock.ts";
import { today } from "../../platform/documents/store.ts";
import { cancelSupplierReturn, returnToSupplier } from "../inventory/supplier-return.ts";

// Issue 10 §2: what a goods return note does besides its status (the engine has already checked each line against
// what is left to return on the delivery order and the sales order, and recomputed their qty_returned). Submit puts
// the goods back (+qty moves into the line's location, or the header's) at the cost they left at — the delivery's
// own stock move for that line — and posts Dr 1200 Stock In Hand / Cr 5000 Cost of Goods Sold for their value.
// Cancel writes the opposite moves (refused if the goods are no longer there) and the reversing entry; the engine
// refuses it first while a credit note made from it is issued, naming it.

const submit: Effect = async (tx, caller, spec, doc, step) => {
  if (doc.header.direction === "supplier") return returnToSupplier(tx, caller, spec, doc, step);
  const ws = caller.workspaceId as string;
  for (const [i, l] of doc.lines.entries()) {
    if (l.source_line_id == null) {
      throw invalid(`Line ${i + 1} is not on the delivery order the goods came from`, `lines.${i}.source_line_id`);
    }
  }
  const goods = doc.lines.filter((l) => l.product_id != null);
  const delivered = `{${goods.map((l) => Number(l.source_line_id)).join(",")}}`;
  const out = await tx.execute(sql`select doc_line_id, unit_cost::text as unit_cost from stock_move
    where workspace_id = ${ws}::uuid and doc_type = 'delivery_order' and doc_line_id = any(${delivered}::bigint[])
      and qty < 0 order by id`);
  const costOf = new Map(
    (out.rows as Array<{ doc_line_id: number | string; unit_cost: string }>).map((r) => [
      Number(r.doc_line_id),
      r.unit_cost,
    ]),
  );
  const moves: StockMove[] = goods.map((l) => {
    const n = doc.lines.indexOf(l) + 1;
    const location = l.location_id ?? doc.header.location_id;
    if (location == null) throw invalid(`Choose the location line ${n} comes back to`, `lines.${n - 1}.location_id`);
    return {
      product_id: Number(l.product_id),
      location_id: Number(location),
      qty: String(l.qty),
      unit_cost: costOf.get(Number(l.source_line_id)) ?? String(l.unit_cost ?? "0"),
      doc_line_id: Number(l.id),
    };
  });
  const docRef = { type: spec.machine.type, id: Number(doc.header.id) };
  await writeStockMoves(tx, caller, docRef, moves, "return");
  await postJournal(
    tx,
    caller,
    { ...docRef, number: step.number, date: String(doc.header.doc_date) },
    GOODS_RETURN_RULE,
    { cost_total: costTotal(moves) },
  );
};

const cancel: Effect = async (tx, caller, spec, doc, step) => {
  if (step.from === spec.machine.initial) return;
  if (doc.header.direction === "supplier") return cancelSupplierReturn(tx, caller, doc);
  const docRef = { type: spec.machine.type, id: Number(doc.header.id) };
  await reverseStockMoves(tx, caller, docRef);
  await reverseJournals(tx, caller, {
    ...docRef,
    number: (doc.header.number as string | null) ?? null,
    date: await today(tx),
  });
};

export const GOODS_RETURN_NOTE_EFFECTS = { submit, cancel };
