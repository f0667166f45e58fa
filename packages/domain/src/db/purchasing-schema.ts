import { sql } from "drizzle-orm";
import { bigint, check, date, index, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { sameWorkspace } from "./columns.ts";
import {
  documentHeaderColumns,
  documentHeaderKeys,
  documentLineColumns,
  documentLineKeys,
} from "./document-columns.ts";
import { location } from "./master-schema.ts";
import { user } from "./platform-schema.ts";

// Purchase orders, supplier delivery orders (receipts) and supplier invoices (issue 11, DESIGN §2.3.1). Written only
// through the document commands; /rest/v1 reads them, lines embedded as select=*,lines:purchase_order_line(*).
// company_id is the supplier.

const money = (name: string) => numeric(name, { precision: 14, scale: 2 }).notNull().default(sql`0`);
const qty = (name: string) => numeric(name, { precision: 14, scale: 3 }).notNull().default(sql`0`);

// What we order from a supplier, delivered to a location by the expected date. Above the workspace's approval
// threshold a submitted order waits for someone allowed to approve it (approved_by/at record who and when).
export const purchaseOrder = pgTable(
  "purchase_order",
  {
    ...documentHeaderColumns,
    expectedDate: date("expected_date"),
    locationId: bigint("location_id", { mode: "number" }), // deliver to
    approvedBy: uuid("approved_by"),
    approvedAt: timestamp("approved_at", { withTimezone: true }),
    marketplaceOrderId: bigint("marketplace_order_id", { mode: "number" }), // issue 23: the marketplace order it buys
  },
  (t) => [
    ...documentHeaderKeys("purchase_order", t),
    sameWorkspace("purchase_order_location_fk", [t.workspaceId, t.locationId], location),
    sameWorkspace("purchase_order_approved_by_fk", [t.workspaceId, t.approvedBy], user),
  ],
).enableRLS();

// unit_price is the supplier's price; qty_received and qty_billed are recomputed from the receipts and supplier
// invoices that draw them; qty_returned from returns to the supplier. supplier_discount_form_id: the confirmed
// supplier discount that priced the line (issue 11, supplier discount forms).
export const purchaseOrderLine = pgTable(
  "purchase_order_line",
  {
    ...documentLineColumns,
    qtyReceived: qty("qty_received"),
    qtyBilled: qty("qty_billed"),
    qtyReturned: qty("qty_returned"),
    supplierDiscountFormId: bigint("supplier_discount_form_id", { mode: "number" }),
    purchaseOrderId: bigint("purchase_order_id", { mode: "number" }).notNull(),
  },
  (t) => documentLineKeys("purchase_order_line", t, { column: t.purchaseOrderId, table: purchaseOrder }),
).enableRLS();

// Goods received from a supplier against a purchase order (ERPNext's purchase receipt): `qty` is what is accepted
// into stock (and counts as received on the PO line); qty_rejected is what was refused at the door, with the reason.
// Each line goes into its own location or the header's. supplier_do_number: the supplier's own delivery note.
export const supplierDeliveryOrder = pgTable(
  "supplier_delivery_order",
  {
    ...documentHeaderColumns,
    locationId: bigint("location_id", { mode: "number" }),
    supplierDoNumber: text("supplier_do_number"),
  },
  (t) => [
    ...documentHeaderKeys("supplier_delivery_order", t),
    sameWorkspace("supplier_delivery_order_location_fk", [t.workspaceId, t.locationId], location),
  ],
).enableRLS();

export const supplierDeliveryOrderLine = pgTable(
  "supplier_delivery_order_line",
  {
    ...documentLineColumns,
    qtyRejected: qty("qty_rejected"),
    rejectReason: text("reject_reason"),
    locationId: bigint("location_id", { mode: "number" }),
    qtyBilled: qty("qty_billed"),
    qtyReturned: qty("qty_returned"),
    supplierDeliveryOrderId: bigint("supplier_delivery_order_id", { mode: "number" }).notNull(),
  },
  (t) => [
    ...documentLineKeys("supplier_delivery_order_line", t, {
      column: t.supplierDeliveryOrderId,
      table: supplierDeliveryOrder,
    }),
    sameWorkspace("supplier_delivery_order_line_location_fk", [t.workspaceId, t.locationId], location),
    check("supplier_delivery_order_line_rejected", sql`${t.qtyRejected} >= 0`),
  ],
).enableRLS();

// What a supplier bills (ERPNext's purchase invoice): made from receipts or PO lines, or direct for services.
// `outstanding` is recomputed from the payments allocated to it. The supplier's own invoice number is unique per
// supplier among invoices not cancelled. match_status is the three-way check's verdict at submit (null while
// draft): matched, exception, or released by someone allowed to override (released_by/at/reason).
export const supplierInvoice = pgTable(
  "supplier_invoice",
  {
    ...documentHeaderColumns,
    dueDate: date("due_date"),
    outstanding: money("outstanding"),
    supplierInvoiceNumber: text("supplier_invoice_number"),
    matchStatus: text("match_status"),
    releasedBy: uuid("released_by"),
    releasedAt: timestamp("released_at", { withTimezone: true }),
    releaseReason: text("release_reason"),
  },
  (t) => [
    ...documentHeaderKeys("supplier_invoice", t),
    uniqueIndex("supplier_invoice_supplier_number_key")
      .on(t.workspaceId, t.companyId, t.supplierInvoiceNumber)
      .where(sql`${t.status} <> 'cancelled'`),
    index("supplier_invoice_match_idx").on(t.workspaceId, t.matchStatus),
    sameWorkspace("supplier_invoice_released_by_fk", [t.workspaceId, t.releasedBy], user),
    check("supplier_invoice_match_status", sql`${t.matchStatus} in ('matched', 'exception', 'released')`),
  ],
).enableRLS();

// match_exception: the three-way check's reason in words, or null when the line passes. purchase_order_line_id and
// supplier_delivery_order_line_id: the order line and receipt line it bills (set from the lines it was made from).
export const supplierInvoiceLine = pgTable(
  "supplier_invoice_line",
  {
    ...documentLineColumns,
    matchException: text("match_exception"),
    purchaseOrderLineId: bigint("purchase_order_line_id", { mode: "number" }),
    supplierDeliveryOrderLineId: bigint("supplier_delivery_order_line_id", { mode: "number" }),
    qtyReturned: qty("qty_returned"),
    supplierInvoiceId: bigint("supplier_invoice_id", { mode: "number" }).notNull(),
  },
  (t) => [
    ...documentLineKeys("supplier_invoice_line", t, { column: t.supplierInvoiceId, table: supplierInvoice }),
    index("supplier_invoice_line_po_line_idx").on(t.workspaceId, t.purchaseOrderLineId),
    index("supplier_invoice_line_sdo_line_idx").on(t.workspaceId, t.supplierDeliveryOrderLineId),
    sameWorkspace("supplier_invoice_line_po_line_fk", [t.workspaceId, t.purchaseOrderLineId], purchaseOrderLine),
    sameWorkspace(
      "supplier_invoice_line_sdo_line_fk",
      [t.workspaceId, t.supplierDeliveryOrderLineId],
      supplierDeliveryOrderLine,
    ),
  ],
).enableRLS();
