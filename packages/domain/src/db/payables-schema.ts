import { sql } from "drizzle-orm";
import { bigint, check, date, index, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { sameWorkspace, tenantColumns, tenantKeys, timestamps } from "./columns.ts";
import { company } from "./company-schema.ts";
import { authUser, workspace } from "./platform-schema.ts";

// Money paid to suppliers (issue 11, DESIGN §2.3.1 record_payment type supplier_payment): the receipt mirrored. A
// payment is numbered when recorded (PAY) and allocated to supplier invoices in payment_allocation rows
// (payment_type 'supplier_payment'), so a supplier invoice's outstanding is recomputed by the same settlement as an
// invoice's. What it does not allocate stays as the supplier's credit (`unallocated`). Cancelling keeps the row
// (status cancelled, who/when/why) and removes its allocations, so what it paid is owed again.

const money = (name: string) => numeric(name, { precision: 14, scale: 2 }).notNull().default(sql`0`);

export const supplierPayment = pgTable(
  "supplier_payment",
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
    cancelledBy: uuid("cancelled_by").references(() => authUser.id),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    cancelReason: text("cancel_reason"),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("supplier_payment", t, workspace),
    uniqueIndex("supplier_payment_number_key").on(t.workspaceId, t.number),
    index("supplier_payment_company_idx").on(t.workspaceId, t.companyId),
    index("supplier_payment_date_idx").on(t.workspaceId, t.docDate, t.id),
    sameWorkspace("supplier_payment_company_fk", [t.workspaceId, t.companyId], company),
    check("supplier_payment_amount_positive", sql`${t.amount} > 0 and ${t.unallocated} >= 0`),
    check("supplier_payment_status", sql`${t.status} in ('submitted', 'cancelled')`),
  ],
).enableRLS();
