import { INVOICE_RULE } from "@workmetrics/domain/documents/postings";
import { toBase } from "@workmetrics/domain/documents/totals";
import { sql } from "drizzle-orm";
import { postJournal, reverseJournals } from "../../platform/documents/ledger.ts";
import { conflict } from "../../platform/documents/refusals.ts";
import type { Effect } from "../../platform/documents/registry.ts";
import { today } from "../../platform/documents/store.ts";
import { settleReceivable } from "./receivable.ts";

// Issue 10 §2: what an invoice does besides its status. Submit fixes the due date (the customer's payment terms
// from the invoice date, unless one was given), sets `outstanding` to what is not yet allocated, settles the status
// from it and posts Dr 1100 Trade Debtors / Cr 4000 Sales / Cr 2200 GST Output in base currency; cancel posts the
// reversing entry.

// Kept by its name for record_payment and the other effects: the one receivable settlement.
export const settleInvoice = settleReceivable;

const submit: Effect = async (tx, caller, spec, doc, step) => {
  const id = Number(doc.header.id);
  await settleInvoice(tx, caller, spec, id, undefined, { header: doc.header, lines: doc.lines, fallsDue: true });
  const rate = String(doc.header.rate ?? "1");
  await postJournal(
    tx,
    caller,
    { type: spec.machine.type, id, number: step.number, date: String(doc.header.doc_date) },
    INVOICE_RULE,
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
    where a.workspace_id = ${caller.workspaceId}::uuid and a.payment_type = 'receipt' and a.document_type = 'invoice'
      and a.document_id = ${id} order by a.id limit 1`);
  const receipt = paid.rows[0] as { number: string } | undefined;
  if (receipt) {
    throw conflict(
      `Receipt ${receipt.number} pays this invoice: an invoice with a payment allocated cannot be cancelled`,
      {
        reason: "paid",
      },
    );
  }
  await reverseJournals(tx, caller, {
    type: spec.machine.type,
    id,
    number: (doc.header.number as string | null) ?? null,
    date: await today(tx),
  });
};

export const INVOICE_EFFECTS = { submit, cancel };
