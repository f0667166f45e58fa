import { invoice } from "@workmetrics/domain/db/selling-schema";
import type { PostingDoc, PostingRule } from "@workmetrics/domain/documents/postings";
import { toBase } from "@workmetrics/domain/documents/totals";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { postJournal, reverseJournals } from "../../platform/documents/ledger.ts";
import { conflict } from "../../platform/documents/refusals.ts";
import type { DocumentSpec, Effect } from "../../platform/documents/registry.ts";
import { type RowOf, rowOf } from "../../platform/documents/rows.ts";
import { type Row, today } from "../../platform/documents/store.ts";
import type { Locked } from "../../platform/documents/transition.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { settleReceivable } from "./receivable.ts";

// Issue 20 §5: the submit and cancel every receivable shares (an invoice, a debit note, a progressive claim). Submit
// makes it owed (receivable.ts: due date, `outstanding`, the status that follows) and posts its rule in base
// currency; cancel refuses while a receipt pays it (when the type says so) or the type's own reason holds, then
// posts the reversing entry. A type declares only what differs: its rule, the figures the rule reads, its own work
// before it is owed (a debit note's invoice, a claim priced again) and its own cancel refusals.

// The columns every receivable's header has (an invoice's are the shared document columns with due_date and
// outstanding), as the engine reads them.
export type ReceivableHeader = RowOf<typeof invoice>;

// What it is settled and posted from: the header and lines as locked, or as the type's own submit reshaped them;
// `fallsDue`: the due date is the customer's payment terms from its date, unless one was given.
export type Owed = { header: Row; lines: Row[]; fallsDue?: boolean; set?: Row };

type Hook<T> = (tx: Tx, caller: Caller, spec: DocumentSpec, doc: Locked) => Promise<T>;

export type ReceivableEffects = {
  rule: PostingRule;
  // The figures `rule` posts, from the header it is settled from; an invoice's by default.
  figures?: (header: Row) => PostingDoc;
  prepare?: Hook<Owed>;
  // Refuse a cancel while a receipt pays it, naming it so ("invoice", "debit note"); unset, payments do not stop it.
  paid?: string;
  refuseCancel?: Hook<void>;
};

// Dr 1100 the total / Cr income the net / Cr 2200 the tax: the header's total is in base currency already.
export const receivableFigures = (row: Row): PostingDoc => {
  const h = rowOf(invoice, row);
  return {
    total: h.base_total ?? "0",
    net_total: toBase(h.net_total ?? "0", h.rate),
    tax_total: toBase(h.tax_total ?? "0", h.rate),
  };
};

const article = (noun: string) => (/^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`);

async function refusePaid(tx: Tx, caller: Caller, type: string, id: number, noun: string): Promise<void> {
  const paid = await tx.execute(sql`select r.number from payment_allocation a
    join receipt r on r.workspace_id = a.workspace_id and r.id = a.payment_id
    where a.workspace_id = ${caller.workspaceId}::uuid and a.payment_type = 'receipt' and a.document_type = ${type}
      and a.document_id = ${id} order by a.id limit 1`);
  const receipt = paid.rows[0] as { number: string } | undefined;
  if (receipt) {
    throw conflict(
      `Receipt ${receipt.number} pays this ${noun}: ${article(noun)} with a payment allocated cannot be cancelled`,
      { reason: "paid" },
    );
  }
}

export function receivableEffects(def: ReceivableEffects): { submit: Effect; cancel: Effect } {
  const figures = def.figures ?? receivableFigures;
  const submit: Effect = async (tx, caller, spec, doc, step) => {
    const id = rowOf(invoice, doc.header).id;
    const owed = def.prepare
      ? await def.prepare(tx, caller, spec, doc)
      : { header: doc.header, lines: doc.lines, fallsDue: true };
    await settleReceivable(tx, caller, spec, id, undefined, owed);
    const header = rowOf(invoice, owed.header);
    await postJournal(
      tx,
      caller,
      { type: spec.machine.type, id, number: step.number, date: header.doc_date },
      def.rule,
      figures(owed.header),
    );
  };
  const cancel: Effect = async (tx, caller, spec, doc, step) => {
    if (step.from === spec.machine.initial) return;
    const header = rowOf(invoice, doc.header);
    if (def.paid) await refusePaid(tx, caller, spec.machine.type, header.id, def.paid);
    await def.refuseCancel?.(tx, caller, spec, doc);
    await reverseJournals(tx, caller, {
      type: spec.machine.type,
      id: header.id,
      number: header.number,
      date: await today(tx),
    });
  };
  return { submit, cancel };
}
