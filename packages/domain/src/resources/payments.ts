import { paymentAllocation, receipt } from "../db/payments-schema.ts";
import { CATALOG } from "./catalog.ts";
import { defineResource } from "./define.ts";
import { auditFields, f, idField } from "./fields.ts";

// Issue 10 §2: receipts and their allocations, read through /rest/v1 (written by record_payment only); no generic
// page (route null). Allocations follow the receipt's permission and keep no row count.

const ro = { readOnly: true };

export const receiptResource = defineResource({
  ...CATALOG.receipt,
  table: receipt,
  display: "number",
  search: ["number", "reference", "notes"],
  defaultOrder: "doc_date.desc,id.desc",
  fields: [
    idField(),
    f.code("number", "Number", { ...ro, list: true, width: 150 }),
    f.status("status", "Status", ["submitted", "cancelled"], { ...ro, list: true }),
    f.date("doc_date", "Date", { ...ro, list: true }),
    f.ref("company_id", "Customer", "company", "name", { ...ro, list: true }),
    f.money("amount", "Amount", { ...ro, list: true }),
    f.money("unallocated", "Unallocated (customer credit)", { ...ro, list: true }),
    f.text("method", "Method", ro),
    f.text("reference", "Reference", ro),
    f.textarea("notes", "Notes", ro),
    f.ref("created_by", "Created by", "user", "name", ro),
    ...auditFields,
  ],
  relations: {
    allocations: { resource: "payment_allocation", kind: "many", column: "payment_id", references: "id" },
    company: { resource: "company", kind: "one", column: "company_id", references: "id" },
  },
});

export const paymentAllocationResource = defineResource({
  ...CATALOG.payment_allocation,
  table: paymentAllocation,
  display: "document_type",
  search: ["document_type"],
  defaultOrder: "payment_id.asc,id.asc",
  keptCount: false,
  fields: [
    idField(),
    f.text("payment_type", "Payment type", ro),
    f.integer("payment_id", "Payment", ro),
    f.text("document_type", "Document type", ro),
    f.integer("document_id", "Document", ro),
    f.money("amount", "Amount", ro),
    f.datetime("created_at", "Created", ro),
  ],
  relations: {
    receipt: { resource: "receipt", kind: "one", column: "payment_id", references: "id" },
  },
});
