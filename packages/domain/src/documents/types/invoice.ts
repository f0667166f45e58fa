import { dec, money } from "../decimal.ts";
import { defineDocumentType } from "../machine.ts";
import { invoicePaymentStatus } from "../quantities.ts";
import { type DocSnapshot, needsLines } from "./snapshot.ts";

// Issue 10 §2: what a customer owes. A submitted invoice's status follows its outstanding amount and due date
// (quantities.ts invoicePaymentStatus): Unpaid, Partly paid, Paid, Overdue; payments change `outstanding` and
// re-settle it. Cancel reverses its entry and gives the billed quantities back; the server refuses it while a
// payment is allocated to it or a credit or debit note stands against it. Credit note issued: nothing is owed and a
// credit note settled it (ERPNext's rule), from `credited`.
const OPEN = ["unpaid", "partly_paid", "paid", "overdue", "credit_note_issued"] as const;

// A receivable cannot be cancelled while anything pays it (a receipt, or a credit note's credit): its outstanding is
// its total less every allocation (receivable.ts), so the page offers Cancel disabled with the reason instead of a
// button that only leads to a refusal. The cancel effects refuse it too, naming the receipt or credit note.
export const unlessPaid = (title: string) => (doc: DocSnapshot) => {
  const { total, outstanding } = doc.header;
  if (doc.status === "draft" || total == null || outstanding == null) return null;
  const paid = dec(String(total)).minus(dec(String(outstanding)));
  return paid.greaterThan(0)
    ? `${money(paid)} of ${money(String(total))} is paid: ${indefinite(title)} with a payment allocated cannot be cancelled`
    : null;
};

const indefinite = (title: string) => `${/^[aeiou]/.test(title) ? "an" : "a"} ${title}`;

// An invoice a credit note credits waits for the credit note first (its `credited`), whatever else pays it.
const uncredited = (doc: DocSnapshot) =>
  doc.status !== "draft" && dec(String(doc.header.credited ?? "0")).greaterThan(0)
    ? `${money(String(doc.header.credited))} of this invoice is credited: cancel the credit note against it first`
    : null;

export const INVOICE = defineDocumentType({
  type: "invoice",
  title: "Invoice",
  plural: "Invoices",
  feature: "erp",
  statuses: {
    draft: { label: "Draft", color: "gray" },
    unpaid: { label: "Unpaid", color: "yellow" },
    partly_paid: { label: "Partly paid", color: "cyan" },
    paid: { label: "Paid", color: "green" },
    overdue: { label: "Overdue", color: "red" },
    credit_note_issued: { label: "Credit note issued", color: "purple" },
    cancelled: { label: "Cancelled", color: "gray" },
  },
  transitions: [
    {
      action: "submit",
      from: ["draft"],
      to: "unpaid",
      permission: "invoice.submit",
      guard: needsLines("invoice", "submitting"),
    },
    {
      action: "cancel",
      from: ["draft", ...OPEN],
      to: "cancelled",
      permission: "invoice.cancel",
      guard: (doc: DocSnapshot) => uncredited(doc) ?? unlessPaid("invoice")(doc),
    },
  ],
  // A draft owes its whole total once submitted; afterwards `outstanding` says.
  settle: (doc: DocSnapshot, to) => {
    if (!(OPEN as readonly string[]).includes(to)) return to;
    const total = String(doc.header.total ?? "0");
    const outstanding = doc.status === "draft" ? total : String(doc.header.outstanding ?? total);
    const due = (doc.header.due_date as string | null | undefined) ?? null;
    const credited = String(doc.header.credited ?? "0");
    return invoicePaymentStatus({ total, outstanding, due_date: due, credited }, doc.today);
  },
});

// ERPNext's make_sales_invoice: from an open sales order or a submitted delivery order, each line defaulting to
// what is left to bill (qty_billed on the source lines).
export const INVOICE_MADE_FROM = [
  { from: "sales_order", draws: "qty_billed", sourceStatuses: ["to_deliver_and_bill", "to_deliver", "to_bill"] },
  { from: "delivery_order", draws: "qty_billed", sourceStatuses: ["to_bill", "completed"] },
] as const;
