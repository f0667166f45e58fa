import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { sameWorkspace } from "./columns.ts";
import {
  documentHeaderColumns,
  documentHeaderKeys,
  documentLineColumns,
  documentLineKeys,
  drawnQuantities,
} from "./document-columns.ts";
import { location } from "./master-schema.ts";
import { user } from "./platform-schema.ts";

// The selling documents' tables (issue 10 §2, DESIGN §2.3.1). Written only through the document commands; /rest/v1
// reads them, lines embedded as select=*,lines:quotation_line(*).

export const quotation = pgTable("quotation", { ...documentHeaderColumns, validUntil: date("valid_until") }, (t) =>
  documentHeaderKeys("quotation", t),
).enableRLS();

export const quotationLine = pgTable(
  "quotation_line",
  { ...documentLineColumns, quotationId: bigint("quotation_id", { mode: "number" }).notNull() },
  (t) => documentLineKeys("quotation_line", t, { column: t.quotationId, table: quotation }),
).enableRLS();

export const salesOrder = pgTable(
  "sales_order",
  {
    ...documentHeaderColumns,
    customerPo: text("customer_po"),
    deliveryDate: date("delivery_date"),
    marketplaceOrderId: bigint("marketplace_order_id", { mode: "number" }), // issue 23: the accepted marketplace order
  },
  (t) => documentHeaderKeys("sales_order", t),
).enableRLS();

export const salesOrderLine = pgTable(
  "sales_order_line",
  {
    ...documentLineColumns,
    ...drawnQuantities,
    salesOrderId: bigint("sales_order_id", { mode: "number" }).notNull(),
  },
  (t) => documentLineKeys("sales_order_line", t, { column: t.salesOrderId, table: salesOrder }),
).enableRLS();

// Goods leaving a location for a customer (issue 10 §2): made from a submitted sales order; its lines draw
// qty_delivered from the order's lines and are billed in turn (qty_billed). Each line leaves from its own location
// or the header's. The driver is a user of the same workspace; received_by/received_at record the handover (the
// `complete` action), beside the billing status.
// Issue 22 (the driver app, DESIGN §2.3.2 "Delivery proof"): dispatch gives a delivery a driver and a `planned_date`;
// the driver orders their day's stops (`stop_seq`), arrives, then delivers — the proof: received_by/received_at, the
// GPS fix (`pod_lat`/`pod_lng`/`pod_accuracy_m`), the device's and the server's time, the signature and photos as
// stored files (paths in the workspace's files bucket, documents/delivery_order/<id>/proof/…) — or fails with a
// `failure_reason` (back to dispatch, which may assign it again).
export const DELIVERY_FAILURE_REASONS = ["nobody", "refused", "wrong_address", "damaged", "other"] as const;
export const deliveryOrder = pgTable(
  "delivery_order",
  {
    ...documentHeaderColumns,
    locationId: bigint("location_id", { mode: "number" }),
    driverId: uuid("driver_id"),
    receivedBy: text("received_by"),
    receivedAt: timestamp("received_at", { withTimezone: true }),
    plannedDate: date("planned_date"),
    stopSeq: integer("stop_seq"),
    arrivedAt: timestamp("arrived_at", { withTimezone: true }),
    failureReason: text("failure_reason", { enum: DELIVERY_FAILURE_REASONS }),
    failureNote: text("failure_note"),
    failedAt: timestamp("failed_at", { withTimezone: true }),
    podLat: numeric("pod_lat", { precision: 9, scale: 6 }),
    podLng: numeric("pod_lng", { precision: 9, scale: 6 }),
    podAccuracyM: numeric("pod_accuracy_m", { precision: 10, scale: 1 }),
    podDeviceTime: timestamp("pod_device_time", { withTimezone: true }),
    podServerTime: timestamp("pod_server_time", { withTimezone: true }),
    podSignature: text("pod_signature"), // the signature's path in the files bucket
    podPhotos: jsonb("pod_photos").$type<string[]>(), // the photos' paths, 1 to 3
  },
  (t) => [
    ...documentHeaderKeys("delivery_order", t),
    sameWorkspace("delivery_order_location_fk", [t.workspaceId, t.locationId], location),
    sameWorkspace("delivery_order_driver_fk", [t.workspaceId, t.driverId], user),
    index("delivery_order_driver_idx").on(t.workspaceId, t.driverId),
    index("delivery_order_trip_idx").on(t.workspaceId, t.driverId, t.plannedDate, t.stopSeq),
    check(
      "delivery_order_failure_reason_check",
      sql`${t.failureReason} is null or ${t.failureReason} in ('nobody', 'refused', 'wrong_address', 'damaged', 'other')`,
    ),
    check("delivery_order_pod_lat_check", sql`${t.podLat} is null or ${t.podLat} between -90 and 90`),
    check("delivery_order_pod_lng_check", sql`${t.podLng} is null or ${t.podLng} between -180 and 180`),
  ],
).enableRLS();

export const deliveryOrderLine = pgTable(
  "delivery_order_line",
  {
    ...documentLineColumns,
    ...drawnQuantities,
    locationId: bigint("location_id", { mode: "number" }),
    deliveryOrderId: bigint("delivery_order_id", { mode: "number" }).notNull(),
  },
  (t) => [
    ...documentLineKeys("delivery_order_line", t, { column: t.deliveryOrderId, table: deliveryOrder }),
    sameWorkspace("delivery_order_line_location_fk", [t.workspaceId, t.locationId], location),
  ],
).enableRLS();

// What a customer owes (issue 10 §2): made from a sales order or a delivery order (its lines bill qty_billed on the
// source lines) or written directly. `outstanding` is recomputed from the payments allocated to it, never
// decremented; its status follows (Unpaid, Partly paid, Paid, Overdue).
export const invoice = pgTable(
  "invoice",
  {
    ...documentHeaderColumns,
    dueDate: date("due_date"),
    outstanding: numeric("outstanding", { precision: 14, scale: 2 }).notNull().default(sql`0`),
    credited: numeric("credited", { precision: 14, scale: 2 }).notNull().default(sql`0`), // Σ submitted credit notes
  },
  (t) => documentHeaderKeys("invoice", t),
).enableRLS();

export const invoiceLine = pgTable(
  "invoice_line",
  {
    ...documentLineColumns,
    qtyCredited: numeric("qty_credited", { precision: 14, scale: 3 }).notNull().default(sql`0`), // by credit notes
    invoiceId: bigint("invoice_id", { mode: "number" }).notNull(),
  },
  (t) => documentLineKeys("invoice_line", t, { column: t.invoiceId, table: invoice }),
).enableRLS();
