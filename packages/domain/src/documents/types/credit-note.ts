import { defineDocumentType } from "../machine.ts";
import { type DocSnapshot, needsLines } from "./snapshot.ts";

// Issue 10 §2: money taken back from a customer's invoice — a price correction (lines with an amount only) or
// returned goods (lines linked to the invoice's lines, or made from a goods return note). Submitting issues it: the
// server posts Dr 4100 Sales Returns / Dr 2200 GST Output / Cr 1100 Trade Debtors, lowers the invoice's outstanding
// by what it still owed (never below zero; the rest is the customer's credit, `unapplied`) and re-settles the
// invoice (fully credited: Credit note issued). Cancel reverses all of it.
export const CREDIT_NOTE = defineDocumentType({
  type: "credit_note",
  title: "Credit note",
  plural: "Credit notes",
  feature: "erp",
  statuses: {
    draft: { label: "Draft", color: "gray" },
    issued: { label: "Issued", color: "blue" },
    cancelled: { label: "Cancelled", color: "red" },
  },
  transitions: [
    {
      action: "submit",
      label: "Issue",
      from: ["draft"],
      to: "issued",
      permission: "credit_note.submit",
      guard: (doc: DocSnapshot) =>
        needsLines("credit note", "issuing")(doc) ??
        (doc.header.invoice_id == null ? "Choose the invoice this credit note credits" : null),
    },
    { action: "cancel", from: ["draft", "issued"], to: "cancelled", permission: "credit_note.cancel" },
  ],
});

// ERPNext's make_sales_return: from a submitted invoice, each line defaulting to what is not credited yet; or from a
// goods return note, for the returned quantities at the invoice's prices.
export const CREDIT_NOTE_MADE_FROM = [
  {
    from: "invoice",
    draws: "qty_credited",
    sourceStatuses: ["unpaid", "partly_paid", "paid", "overdue", "credit_note_issued"],
  },
  { from: "goods_return_note", draws: "qty_credited", sourceStatuses: ["to_credit"] },
] as const;
