import {
  DELIVERY_FAILURE_REASONS,
  deliveryOrder,
  deliveryOrderLine,
  invoice,
  invoiceLine,
  quotation,
  quotationLine,
  salesOrder,
  salesOrderLine,
} from "../db/selling-schema.ts";
import { DELIVERY_ORDER } from "../documents/types/delivery-order.ts";
import { INVOICE } from "../documents/types/invoice.ts";
import { QUOTATION } from "../documents/types/quotation.ts";
import { SALES_ORDER } from "../documents/types/sales-order.ts";
import { ROLE } from "../roles.ts";
import { CATALOG } from "./catalog.ts";
import { documentHeaderFields, documentLineFields, documentResources } from "./documents.ts";
import { f } from "./fields.ts";

// Issue 10 §2: quotations, sales orders, delivery orders and invoices, read through /rest/v1; no generic page (route null) until the document
// pages come.

export const [quotationResource, quotationLineResource] = documentResources(
  "quotation",
  {
    entry: CATALOG.quotation,
    table: quotation,
    fields: documentHeaderFields(QUOTATION.statusNames, [f.date("valid_until", "Valid until", { list: true })]),
  },
  { entry: CATALOG.quotation_line, table: quotationLine, fields: documentLineFields("quotation") },
  QUOTATION.owner?.column, // issue 10 §3: salespeople read their own quotations
);

export const [salesOrderResource, salesOrderLineResource] = documentResources(
  "sales_order",
  {
    entry: CATALOG.sales_order,
    table: salesOrder,
    fields: documentHeaderFields(SALES_ORDER.statusNames, [
      f.code("customer_po", "Customer PO", { width: 130 }), // in the column chooser: Total fits at 1280 px
      f.date("delivery_date", "Delivery date", { list: true }),
    ]),
  },
  {
    entry: CATALOG.sales_order_line,
    table: salesOrderLine,
    fields: documentLineFields("sales_order", [
      f.number("qty_delivered", "Delivered", { readOnly: true }),
      f.number("qty_billed", "Billed", { readOnly: true }),
      f.number("qty_returned", "Returned", { readOnly: true }),
    ]),
  },
  SALES_ORDER.owner?.column, // issue 10 §3: salespeople read their own orders
);

export const [deliveryOrderResource, deliveryOrderLineResource] = documentResources(
  "delivery_order",
  {
    entry: CATALOG.delivery_order,
    table: deliveryOrder,
    fields: documentHeaderFields(DELIVERY_ORDER.statusNames, [
      f.ref("location_id", "Location", "location", "name", { list: true, width: 140 }),
      {
        ...f.ref("driver_id", "Driver", "user", "name", { list: true, width: 140 }),
        reference: { resource: "user", display: "name", where: { role_id: String(ROLE.Driver), active: "true" } },
      },
      // Issue 22: dispatch gives a driver and a date. In the column chooser, with the failure: Total fits at 1280 px.
      f.date("planned_date", "Delivery date"),
      f.integer("stop_seq", "Stop", { readOnly: true, form: false }),
      f.text("received_by", "Received by", { readOnly: true }),
      f.datetime("received_at", "Received at", { readOnly: true }),
      f.datetime("arrived_at", "Arrived at", { readOnly: true, form: false }),
      f.enum("failure_reason", "Failed", DELIVERY_FAILURE_REASONS, { readOnly: true, form: false }),
      f.text("failure_note", "Failure note", { readOnly: true, form: false }),
      f.datetime("failed_at", "Failed at", { readOnly: true, form: false }),
      f.number("pod_lat", "Latitude", { readOnly: true, form: false }),
      f.number("pod_lng", "Longitude", { readOnly: true, form: false }),
      f.number("pod_accuracy_m", "GPS accuracy (m)", { readOnly: true, form: false }),
      f.datetime("pod_device_time", "Device time", { readOnly: true, form: false }),
      f.datetime("pod_server_time", "Server time", { readOnly: true, form: false }),
      f.text("pod_signature", "Signature", { readOnly: true, form: false }),
      f.text("pod_photos", "Photos", { readOnly: true, form: false }),
    ]),
  },
  {
    entry: CATALOG.delivery_order_line,
    table: deliveryOrderLine,
    fields: documentLineFields("delivery_order", [
      f.ref("location_id", "Location", "location", "name"),
      f.number("qty_delivered", "Delivered", { readOnly: true }),
      f.number("qty_billed", "Billed", { readOnly: true }),
      f.number("qty_returned", "Returned", { readOnly: true }),
    ]),
  },
  DELIVERY_ORDER.owner?.column, // issue 10 §3: drivers read the delivery orders assigned to them
);

export const [invoiceResource, invoiceLineResource] = documentResources(
  "invoice",
  {
    entry: CATALOG.invoice,
    table: invoice,
    fields: documentHeaderFields(INVOICE.statusNames, [
      f.date("due_date", "Due date", { list: true }),
      f.money("outstanding", "Outstanding", { readOnly: true, list: true }),
      f.money("credited", "Credited", { readOnly: true }),
    ]),
  },
  {
    entry: CATALOG.invoice_line,
    table: invoiceLine,
    fields: documentLineFields("invoice", [f.number("qty_credited", "Credited", { readOnly: true })]),
  },
);
