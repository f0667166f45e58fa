import { debitNote } from "@workmetrics/domain/db/returns-schema";
import { invoice } from "@workmetrics/domain/db/selling-schema";
import { DEBIT_NOTE_RULE } from "@workmetrics/domain/documents/postings";
import type { Tx } from "../../platform/db/database.ts";
import { conflict, invalid, notFound } from "../../platform/documents/refusals.ts";
import { type DocumentSpec, documentSpec, type PrepareConvert } from "../../platform/documents/registry.ts";
import { rowOf } from "../../platform/documents/rows.ts";
import { lockHeader } from "../../platform/documents/store.ts";
import type { Locked } from "../../platform/documents/transition.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { refuseWhileCreditAllocated } from "./credit-note.effects.ts";
import { type Owed, receivableEffects } from "./receivable.effects.ts";
import { settleReceivable } from "./receivable.ts";

// Issue 10 §2: what a debit note does besides its status. It is a receivable of its own (ERPNext's debit note is a
// sales invoice with is_debit_note; Odoo's account_debit_note a move of its own): submit checks the invoice it
// charges against (this customer's, submitted), fixes its due date from the customer's payment terms, sets
// `outstanding` from the receipts allocated to it and posts Dr 1100 / Cr 4000 / Cr 2200; receipts pay it through
// record_payment (document_type debit_note). Cancel waits for its payments and posts the reversing entry.

const INVOICE_OPEN = new Set(["unpaid", "partly_paid", "paid", "overdue", "credit_note_issued"]);

export const prepareDebitNote: PrepareConvert = async (_tx, _caller, source, draft) => ({
  header: { ...draft.header, invoice_id: rowOf(invoice, source.doc.header).id, due_date: null },
  lines: draft.lines,
});

// Kept by its name for record_payment and the other effects: the one receivable settlement.
export const settleDebitNote = settleReceivable;

// The invoice it charges against, when it names one: this customer's, submitted.
const checkInvoice = async (tx: Tx, caller: Caller, _spec: DocumentSpec, doc: Locked): Promise<Owed> => {
  const header = rowOf(debitNote, doc.header);
  if (header.invoice_id != null) {
    const invoices = documentSpec("invoice");
    const inv = await lockHeader(tx, invoices, caller.workspaceId as string, header.invoice_id, false);
    if (!inv) throw notFound(invoices, header.invoice_id);
    const charged = rowOf(invoice, inv);
    const name = charged.number ?? `Invoice ${header.invoice_id}`;
    if (!INVOICE_OPEN.has(charged.status)) {
      const label = invoices.machine.statuses[charged.status]?.label.toLowerCase() ?? charged.status;
      throw conflict(`${name} is ${label}: a debit note charges against a submitted invoice`);
    }
    if (charged.company_id !== header.company_id) {
      throw invalid(`${name} is another customer's invoice`, "header.invoice_id");
    }
  }
  return { header: doc.header, lines: doc.lines, fallsDue: true };
};

export const DEBIT_NOTE_EFFECTS = receivableEffects({
  rule: DEBIT_NOTE_RULE,
  prepare: checkInvoice,
  paid: "debit note",
  refuseCancel: (tx, caller, _spec, doc) =>
    refuseWhileCreditAllocated(tx, caller.workspaceId as string, "debit_note", rowOf(debitNote, doc.header).id),
});
