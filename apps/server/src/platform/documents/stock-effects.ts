import { costTotal, type PostingRule } from "@workmetrics/domain/documents/postings";
import type { Tx } from "../db/database.ts";
import type { Caller } from "../rest/access.ts";
import { postJournal, reverseJournals } from "./ledger.ts";
import { invalid } from "./refusals.ts";
import type { DocumentSpec, Effect } from "./registry.ts";
import { headerOf } from "./rows.ts";
import { reverseStockMoves, type StockMove, writeStockMoves } from "./stock.ts";
import { type Row, today } from "./store.ts";
import type { Locked } from "./transition.ts";

// Issue 20 §5: the effect of a document that moves goods at a cost and posts their value (a delivery order out at
// cost, a customer's goods return note back in at the cost they left at, a supplier's delivery in at the order's). Submit writes the moves the type works
// out (refused below zero, stock.ts) and posts `rule` for their value; cancel writes the opposite moves (refused if
// the goods are no longer there) and the reversing entry. The type says only which moves, at what cost, and what
// it does around them (a supplier delivery order's moving average).

export type StockJournal = {
  rule: PostingRule;
  verb: string; // what the moves do, in a refusal: "deliver", "return"
  moves: (tx: Tx, caller: Caller, spec: DocumentSpec, doc: Locked) => Promise<StockMove[]>;
  // A type's own work around them (a receipt moves the product's moving-average cost before its moves are written,
  // checks the invoices waiting for the goods after they are posted, and takes its cost back out before a cancel).
  beforeMoves?: (tx: Tx, caller: Caller, doc: Locked, moves: readonly StockMove[]) => Promise<void>;
  afterPosting?: (tx: Tx, caller: Caller, doc: Locked) => Promise<void>;
  beforeCancel?: (tx: Tx, caller: Caller, spec: DocumentSpec, doc: Locked) => Promise<void>;
};

// Where a goods line moves: its own location or the header's; refused, naming the line, with neither.
export function lineLocation(doc: Locked, line: Row, where: string): number {
  const n = doc.lines.indexOf(line) + 1;
  const location = line.location_id ?? doc.header.location_id;
  if (location == null) throw invalid(`Choose the location line ${n} ${where}`, `lines.${n - 1}.location_id`);
  return Number(location);
}

export function stockJournalEffects(def: StockJournal): { submit: Effect; cancel: Effect } {
  const submit: Effect = async (tx, caller, spec, doc, step) => {
    const moves = await def.moves(tx, caller, spec, doc);
    await def.beforeMoves?.(tx, caller, doc, moves);
    const header = headerOf(doc.header);
    const docRef = { type: spec.machine.type, id: header.id };
    await writeStockMoves(tx, caller, docRef, moves, def.verb);
    await postJournal(tx, caller, { ...docRef, number: step.number, date: header.doc_date }, def.rule, {
      cost_total: costTotal(moves),
    });
    await def.afterPosting?.(tx, caller, doc);
  };
  const cancel: Effect = async (tx, caller, spec, doc, step) => {
    if (step.from === spec.machine.initial) return;
    await def.beforeCancel?.(tx, caller, spec, doc);
    const header = headerOf(doc.header);
    const docRef = { type: spec.machine.type, id: header.id };
    await reverseStockMoves(tx, caller, docRef);
    await reverseJournals(tx, caller, { ...docRef, number: header.number, date: await today(tx) });
  };
  return { submit, cancel };
}
