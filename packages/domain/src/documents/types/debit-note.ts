import { defineDocumentType } from "../machine.ts";
import { invoicePaymentStatus } from "../quantities.ts";
import { unlessPaid } from "./invoice.ts";
import { type DocSnapshot, needsLines } from "./snapshot.ts";

// Issue 10 §2: extra charges against an earlier invoice. As in ERPNext (a sales invoice with is_debit_note) and Odoo
// (account_debit_note), it is a receivable of its own: submit posts Dr 1100 / Cr 4000 / Cr 2200 like an invoice,
// fixes its due date and `outstanding`, which receipts pay (record_payment allocations of document_type
// debit_note); its status follows like an invoice's. The invoice's own outstanding is untouched.
const OPEN = ["unpaid", "partly_paid", "paid", "overdue"] as const;

export const DEBIT_NOTE = defineDocumentType({
  type: "debit_note",
  title: "Debit note",
  plural: "Debit notes",
  feature: "erp",
  statuses: {
    draft: { label: "Draft", color: "gray" },
    unpaid: { label: "Unpaid", color: "yellow" },
    partly_paid: { label: "Partly paid", color: "cyan" },
    paid: { label: "Paid", color: "green" },
    overdue: { label: "Overdue", color: "red" },
    cancelled: { label: "Cancelled", color: "gray" },
  },
  transitions: [
    {
      action: "submit",
      from: ["draft"],
      to: "unpaid",
      permission: "debit_note.submit",
      guard: needsLines("debit note", "submitting"),
    },
    {
      action: "cancel",
      from: ["draft", ...OPEN],
      to: "cancelled",
      permission: "debit_note.cancel",
      guard: unlessPaid("debit note"),
    },
  ],
  settle: (doc: DocSnapshot, to) => {
    if (!(OPEN as readonly string[]).includes(to)) return to;
    const total = String(doc.header.total ?? "0");
    const outstanding = doc.status === "draft" ? total : String(doc.header.outstanding ?? total);
    const due = (doc.header.due_date as string | null | undefined) ?? null;
    return invoicePaymentStatus({ total, outstanding, due_date: due }, doc.today) as (typeof OPEN)[number];
  },
});

// Made from a submitted invoice (the customer, currency and lines to start from; the clerk sets the charges), or
// written directly with the invoice named in the header.
export const DEBIT_NOTE_MADE_FROM = [
  { from: "invoice", sourceStatuses: ["unpaid", "partly_paid", "paid", "overdue", "credit_note_issued"] },
] as const;
