import { sql } from "drizzle-orm";
import { bigint, check, date, index, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { sameWorkspace, tenantColumns, tenantKeys, timestamps } from "./columns.ts";
import { company } from "./company-schema.ts";
import { authUser, workspace } from "./platform-schema.ts";

// Money received (issue 10 §2, DESIGN §2.3.1 record_payment). A receipt is numbered when it is recorded (RCT) and
// allocated to invoices in rows (STYLE "Payments allocate in rows"): an invoice's outstanding is its total less the
// rows that name it, recomputed, never decremented. What a receipt does not allocate stays as the customer's credit
// (`unallocated`).

const money = (name: string) => numeric(name, { precision: 14, scale: 2 }).notNull().default(sql`0`);

export const receipt = pgTable(
  "receipt",
  {
    ...tenantColumns,
    number: text("number").notNull(),
    status: text("status").notNull().default("submitted"),
    docDate: date("doc_date").notNull().default(sql`current_date`),
    companyId: bigint("company_id", { mode: "number" }).notNull(),
    amount: money("amount"),
    unallocated: money("unallocated"),
    method: text("method").notNull(),
    reference: text("reference"),
    notes: text("notes"),
    createdBy: uuid("created_by").references(() => authUser.id),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("receipt", t, workspace),
    uniqueIndex("receipt_number_key").on(t.workspaceId, t.number),
    index("receipt_company_idx").on(t.workspaceId, t.companyId),
    index("receipt_date_idx").on(t.workspaceId, t.docDate, t.id),
    sameWorkspace("receipt_company_fk", [t.workspaceId, t.companyId], company),
    check("receipt_amount_positive", sql`${t.amount} > 0 and ${t.unallocated} >= 0`),
  ],
).enableRLS();

// One row per (payment, document) it pays; payment_type is receipt (supplier payments later).
export const paymentAllocation = pgTable(
  "payment_allocation",
  {
    ...tenantColumns,
    paymentType: text("payment_type").notNull(),
    paymentId: bigint("payment_id", { mode: "number" }).notNull(),
    documentType: text("document_type").notNull(),
    documentId: bigint("document_id", { mode: "number" }).notNull(),
    amount: money("amount"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...tenantKeys("payment_allocation", t, workspace),
    index("payment_allocation_document_idx").on(t.workspaceId, t.documentType, t.documentId),
    index("payment_allocation_payment_idx").on(t.workspaceId, t.paymentType, t.paymentId),
    check("payment_allocation_amount_positive", sql`${t.amount} > 0`),
  ],
).enableRLS();
