import {
  purchaseOrder,
  purchaseOrderLine,
  supplierDeliveryOrder,
  supplierDeliveryOrderLine,
  supplierInvoice,
  supplierInvoiceLine,
} from "../db/purchasing-schema.ts";
import { PURCHASE_ORDER } from "../documents/types/purchase-order.ts";
import { SUPPLIER_DELIVERY_ORDER } from "../documents/types/supplier-delivery-order.ts";
import { SUPPLIER_INVOICE } from "../documents/types/supplier-invoice.ts";
import { CATALOG } from "./catalog.ts";
import { documentHeaderFields, documentLineFields, documentResources } from "./documents.ts";
import { f } from "./fields.ts";
import type { FieldDef, ResourceDef } from "./types.ts";

// Issue 11: purchase orders, supplier delivery orders and supplier invoices, read through /rest/v1 (written by the
// document commands), pages at /dashboard/purchase-orders, supplier-delivery-orders and supplier-invoices.

const ro = { readOnly: true };

// The buying side's company is the supplier.
const supplierHeader = (statuses: readonly string[], extra: FieldDef[]): FieldDef[] =>
  documentHeaderFields(statuses, extra).map((field) =>
    field.name === "company_id" ? { ...field, label: "Supplier" } : field,
  );

export const MATCH_STATUSES = ["matched", "exception", "released"] as const;

export const [purchaseOrderResource, purchaseOrderLineResource] = documentResources(
  "purchase_order",
  {
    entry: CATALOG.purchase_order,
    table: purchaseOrder,
    fields: supplierHeader(PURCHASE_ORDER.statusNames, [
      f.date("expected_date", "Expected date", { list: true }),
      f.ref("location_id", "Deliver to", "location", "name", { list: true, width: 140 }),
      f.ref("approved_by", "Approved by", "user", "name", ro),
      f.datetime("approved_at", "Approved at", ro),
    ]),
  },
  {
    entry: CATALOG.purchase_order_line,
    table: purchaseOrderLine,
    fields: documentLineFields("purchase_order", [
      f.number("qty_received", "Received", { ...ro, list: true }),
      f.number("qty_billed", "Billed", { ...ro, list: true }),
      f.number("qty_returned", "Returned", ro),
      f.integer("supplier_discount_form_id", "Supplier discount", ro),
    ]),
  },
);

export const [supplierDeliveryOrderResource, supplierDeliveryOrderLineResource] = documentResources(
  "supplier_delivery_order",
  {
    entry: CATALOG.supplier_delivery_order,
    table: supplierDeliveryOrder,
    fields: supplierHeader(SUPPLIER_DELIVERY_ORDER.statusNames, [
      f.ref("location_id", "Location", "location", "name", { list: true, width: 140 }),
      f.code("supplier_do_number", "Supplier's DO number", { list: true, width: 140 }),
    ]),
  },
  {
    entry: CATALOG.supplier_delivery_order_line,
    table: supplierDeliveryOrderLine,
    fields: documentLineFields("supplier_delivery_order", [
      f.ref("location_id", "Location", "location", "name"),
      f.number("qty_rejected", "Rejected", { min: 0 }),
      f.text("reject_reason", "Reason rejected", { maxLength: 200 }),
      f.number("qty_billed", "Billed", { ...ro, list: true }),
      f.number("qty_returned", "Returned", ro),
    ]),
  },
);

export const [supplierInvoiceResource, supplierInvoiceLineResource] = documentResources(
  "supplier_invoice",
  {
    entry: CATALOG.supplier_invoice,
    table: supplierInvoice,
    fields: supplierHeader(SUPPLIER_INVOICE.statusNames, [
      // At 1280 px the list shows Number, Status, Date, Supplier, their number, the check and Total; due date and
      // outstanding are in the column chooser (and the list's totals).
      f.code("supplier_invoice_number", "Supplier's number", { list: true, width: 130 }),
      f.date("due_date", "Due date"),
      f.money("outstanding", "Outstanding", ro),
      // Listed and read-only, so the document page shows it beside the header once set, in words.
      f.enum("match_status", "Three-way check", ["matched", "exception", "released"], {
        ...ro,
        list: true,
        width: 120,
      }),
      f.ref("released_by", "Released by", "user", "name", ro),
      f.datetime("released_at", "Released at", ro),
      f.text("release_reason", "Release reason", ro),
    ]),
  },
  {
    entry: CATALOG.supplier_invoice_line,
    table: supplierInvoiceLine,
    fields: documentLineFields("supplier_invoice", [
      f.text("match_exception", "Three-way exception", { ...ro, list: true }),
      f.ref("purchase_order_line_id", "PO line", "purchase_order_line", "description", ro),
      f.ref("supplier_delivery_order_line_id", "Receipt line", "supplier_delivery_order_line", "description", ro),
      f.number("qty_returned", "Returned", ro),
    ]),
  },
);

export const PURCHASING_RESOURCES: readonly ResourceDef[] = [
  purchaseOrderResource,
  purchaseOrderLineResource,
  supplierDeliveryOrderResource,
  supplierDeliveryOrderLineResource,
  supplierInvoiceResource,
  supplierInvoiceLineResource,
];
