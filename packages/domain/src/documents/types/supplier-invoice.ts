import { defineDocumentType } from "../machine.ts";
import { invoicePaymentStatus } from "../quantities.ts";
import { PURCHASE_ORDER_OPEN } from "./purchase-order.ts";
import { type DocSnapshot, needsLines } from "./snapshot.ts";

// Issue 11: what a supplier bills (ERPNext's purchase invoice). Submitting it runs the three-way check (three-way.ts:
// match_status matched or exception, each line's match_exception), fixes the due date and `outstanding`, and posts
// Dr 2100 Stock Received But Not Billed at the receipt value (or an expense for direct lines), Dr 5020 Price Variance
// for the difference, Dr 1300 GST Input / Cr 2000 Trade Creditors. Its status follows `outstanding` like a sales
// invoice's. An invoice with exceptions is paid only once someone allowed to override releases it, with a reason.
const OPEN = ["unpaid", "partly_paid", "paid", "overdue"] as const;

export const SUPPLIER_INVOICE = defineDocumentType({
  type: "supplier_invoice",
  title: "Supplier invoice",
  plural: "Supplier invoices",
  feature: "erp",
  buying: true,
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
      permission: "supplier_invoice.submit",
      guard: (doc: DocSnapshot) =>
        needsLines("supplier invoice", "submitting")(doc) ??
        (String(doc.header.supplier_invoice_number ?? "").trim()
          ? null
          : "Give the supplier's invoice number before submitting"),
    },
    // Released to pay despite its exceptions (Odoo's force_release_to_pay): who, when and why go on the invoice
    // and into its history. The status stays what the payments make it.
    {
      action: "release",
      label: "Release to pay",
      from: [...OPEN],
      to: "unpaid",
      permission: "supplier_invoice.release",
      does: "release supplier invoices to pay",
      needsReason: true,
      reasonPrompt: "Give a reason to release it to pay despite its exceptions",
      applies: (doc: DocSnapshot) => doc.header.match_status === "exception",
      guard: (doc: DocSnapshot) =>
        doc.header.match_status === "released"
          ? "This supplier invoice is already released to pay"
          : doc.header.match_status !== "exception"
            ? "This supplier invoice passed the three-way check: it needs no release"
            : null,
    },
    { action: "cancel", from: ["draft", ...OPEN], to: "cancelled", permission: "supplier_invoice.cancel" },
  ],
  settle: (doc: DocSnapshot, to) => {
    if (!(OPEN as readonly string[]).includes(to)) return to;
    const total = String(doc.header.total ?? "0");
    const outstanding = doc.status === "draft" ? total : String(doc.header.outstanding ?? total);
    const due = (doc.header.due_date as string | null | undefined) ?? null;
    const status = invoicePaymentStatus({ total, outstanding, due_date: due }, doc.today);
    return status === "credit_note_issued" ? "paid" : status;
  },
});

// From a submitted receipt (billing what was received: qty_billed on its lines and, through them, on the order's) or
// from an open purchase order's lines (billed before or without a receipt); or written directly (services).
export const SUPPLIER_INVOICE_MADE_FROM = [
  { from: "supplier_delivery_order", draws: "qty_billed", sourceStatuses: ["to_bill"] },
  { from: "purchase_order", draws: "qty_billed", sourceStatuses: [...PURCHASE_ORDER_OPEN] },
] as const;
