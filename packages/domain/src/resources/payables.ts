import type { Requirement } from "../access.ts";
import { supplierPayment } from "../db/payables-schema.ts";
import { CATALOG } from "./catalog.ts";
import { defineResource } from "./define.ts";
import { auditFields, f, idField } from "./fields.ts";
import type { ResourceDef } from "./types.ts";

// Issue 11: supplier payments, read through /rest/v1 and written by record_payment (type supplier_payment) and
// supplier_payment_cancel only; shown on the Accounts payable page, so no generic page (route null). Their
// allocations are payment_allocation rows with payment_type 'supplier_payment'.

const ro = { readOnly: true };

export const supplierPaymentResource = defineResource({
  ...CATALOG.supplier_payment,
  table: supplierPayment,
  display: "number",
  search: ["number", "reference", "notes"],
  defaultOrder: "doc_date.desc,id.desc",
  fields: [
    idField(),
    f.code("number", "Number", { ...ro, list: true, width: 150 }),
    f.status("status", "Status", ["submitted", "cancelled"], { ...ro, list: true }),
    f.date("doc_date", "Date", { ...ro, list: true }),
    f.ref("company_id", "Supplier", "company", "name", { ...ro, list: true }),
    f.money("amount", "Amount", { ...ro, list: true }),
    f.money("unallocated", "Unallocated (supplier credit)", { ...ro, list: true }),
    f.text("method", "Method", ro),
    f.text("reference", "Reference", ro),
    f.textarea("notes", "Notes", ro),
    f.ref("created_by", "Created by", "user", "name", ro),
    f.ref("cancelled_by", "Cancelled by", "user", "name", ro),
    f.datetime("cancelled_at", "Cancelled", ro),
    f.text("cancel_reason", "Why cancelled", ro),
    ...auditFields,
  ],
  relations: {
    company: { resource: "company", kind: "one", column: "company_id", references: "id" },
  },
});

export const PAYABLES_RESOURCES: readonly ResourceDef[] = [supplierPaymentResource];

// Who pays suppliers and who cancels a payment (finance managers by default; the one access rule on both sides).
export const SUPPLIER_PAYMENT_ACCESS = {
  create: {
    audience: "member",
    permission: "supplier_payment.create",
    feature: "erp",
    subject: "Supplier payments",
    does: "pay suppliers",
  },
  // Using a payment's unallocated credit on later invoices (allocate_credit, which asks `<type>.update`).
  allocate: {
    audience: "member",
    permission: "supplier_payment.update",
    feature: "erp",
    subject: "Supplier payments",
    does: "allocate a supplier's credit",
  },
  cancel: {
    audience: "member",
    permission: "supplier_payment.cancel",
    feature: "erp",
    subject: "Supplier payments",
    does: "cancel supplier payments",
  },
} as const satisfies Record<string, Requirement>;

// The three-way check queue's reasons (issue 11), as the queue counts and filters them (the check writes each line's
// reason in words; the queue sorts it under one). Who reads the queue is REPORT_ACCESS.three_way_check.
export const THREE_WAY_REASONS = [
  { key: "no_po_line", label: "No PO line", pattern: "(^|; )No purchase order line" },
  { key: "over_received", label: "Invoiced more than received", pattern: "(^|; )Invoiced " },
  { key: "price", label: "Price above tolerance", pattern: "(^|; )Price " },
  { key: "duplicate", label: "Duplicate supplier invoice number", pattern: "(^|; )Supplier's number looks like" },
] as const;

export type ThreeWayReason = (typeof THREE_WAY_REASONS)[number]["key"];
