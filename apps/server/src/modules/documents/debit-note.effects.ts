import { DEBIT_NOTE_RULE } from "@workmetrics/domain/documents/postings";
import { toBase } from "@workmetrics/domain/documents/totals";
import { sql } from "drizzle-orm";
import { postJournal, reverseJournals } from "../../platform/documents/ledger.ts";
import { conflict, invalid, notFound } from "../../platform/documents/refusals.ts";
import { documentSpec, type Effect, type PrepareConvert } from "../../platform/documents/registry.ts";
import { lockHeader, today } from "../../platform/documents/store.ts";
import { refuseWhileCreditAllocated } from "./credit-note.effects.ts";
import { settleReceivable } from "./receivable.ts";

// Issue 10 §2: what a debit note does besides its status. It is a receivable of its own (ERPNext's debit note is a
// sales invoice with is_debit_note; Odoo's account_debit_note a move of its own): submit checks the invoice it
// charges against (this customer's, submitted), fixes its due date from the customer's payment terms, sets
// `outstanding` from the receipts allocated to it and posts Dr 1100 / Cr 4000 / Cr 2200; receipts pay it through
// record_payment (document_type debit_note). Cancel waits for its payments and posts the reversing entry.

const INVOICE_OPEN = new Set(["unpaid", "partly_paid", "paid", "overdue", "credit_note_issued"]);

export const prepareDebitNote: PrepareConvert = async (_tx, _caller, source, draft) => ({
  header: { ...draft.header, invoice_id: Number(source.doc.header.id), due_date: null },
  lines: draft.lines,
});

// Kept by its name for record_payment and the other effects: the one receivable settlement.
export const settleDebitNote = settleReceivable;

const submit: Effect = async (tx, caller, spec, doc, step) => {
  const ws = caller.workspaceId as string;
  const id = Number(doc.header.id);
  if (doc.header.invoice_id != null) {
    const invoices = documentSpec("invoice");
    const invoiceId = Number(doc.header.invoice_id);
    const inv = await lockHeader(tx, invoices, ws, invoiceId, false);
    if (!inv) throw notFound(invoices, invoiceId);
    const name = String(inv.number ?? `Invoice ${invoiceId}`);
    if (!INVOICE_OPEN.has(String(inv.status))) {
      const label = invoices.machine.statuses[String(inv.status)]?.label.toLowerCase() ?? inv.status;
      throw conflict(`${name} is ${label}: a debit note charges against a submitted invoice`);
    }
    if (Number(inv.company_id) !== Number(doc.header.company_id)) {
      throw invalid(`${name} is another customer's invoice`, "header.invoice_id");
    }
  }
  await settleDebitNote(tx, caller, spec, id, undefined, { header: doc.header, lines: doc.lines, fallsDue: true });
  const rate = String(doc.header.rate ?? "1");
  await postJournal(
    tx,
    caller,
    { type: spec.machine.type, id, number: step.number, date: String(doc.header.doc_date) },
    DEBIT_NOTE_RULE,
    {
      total: String(doc.header.base_total),
      net_total: toBase(String(doc.header.net_total), rate),
      tax_total: toBase(String(doc.header.tax_total), rate),
    },
  );
};

const cancel: Effect = async (tx, caller, spec, doc, step) => {
  if (step.from === spec.machine.initial) return;
  const id = Number(doc.header.id);
  const paid = await tx.execute(sql`select r.number from payment_allocation a
    join receipt r on r.workspace_id = a.workspace_id and r.id = a.payment_id
    where a.workspace_id = ${caller.workspaceId}::uuid and a.payment_type = 'receipt'
      and a.document_type = 'debit_note' and a.document_id = ${id} order by a.id limit 1`);
  const receipt = paid.rows[0] as { number: string } | undefined;
  if (receipt) {
    throw conflict(
      `Receipt ${receipt.number} pays this debit note: a debit note with a payment allocated cannot be cancelled`,
      { reason: "paid" },
    );
  }
  await refuseWhileCreditAllocated(tx, caller.workspaceId as string, "debit_note", id);
  await reverseJournals(tx, caller, {
    type: spec.machine.type,
    id,
    number: (doc.header.number as string | null) ?? null,
    date: await today(tx),
  });
};

export const DEBIT_NOTE_EFFECTS = { submit, cancel };
