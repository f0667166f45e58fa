import {
  POS_ORDER_KINDS,
  POS_PAYMENT_METHODS,
  POS_SESSION_STATUSES,
  posFavourite,
  posOrder,
  posOrderLine,
  posPayment,
  posSession,
} from "../db/pos-schema.ts";
import { CATALOG } from "./catalog.ts";
import { defineResource } from "./define.ts";
import { auditFields, COST_PERMISSION, f, idField } from "./fields.ts";
import type { ResourceDef } from "./types.ts";

// Issue 22 "Point of sale" (Premium; DESIGN §2.3.2 "POS"): the back office reads the counter's sessions and orders
// (lines and payments embedded); they are written only by the POS commands (pos_sale, pos_refund, …).

const ro = { readOnly: true, form: false };
const ORDER_STATUSES = ["paid", "partly_refunded", "refunded", "refund"] as const;

export const posSessionResource = defineResource({
  ...CATALOG.pos_session,
  table: posSession,
  display: "id",
  search: [],
  defaultOrder: "opened_at.desc,id.desc",
  fields: [
    idField(),
    f.ref("location_id", "Counter", "location", "name", { ...ro, list: true }),
    f.status("status", "Status", POS_SESSION_STATUSES, { ...ro, list: true, width: 100 }),
    f.ref("opened_by", "Cashier", "user", "name", { ...ro, list: true }),
    f.datetime("opened_at", "Opened", { ...ro, list: true }),
    f.datetime("closed_at", "Closed", { ...ro, list: true }),
    f.money("opening_float", "Opening float", { ...ro, list: true }),
    f.money("expected_cash", "Expected cash", { ...ro, list: true }),
    f.money("counted_cash", "Counted cash", { ...ro, list: true }),
    f.money("difference", "Difference", { ...ro, list: true }),
    f.ref("closed_by", "Closed by", "user", "name", ro),
    ...auditFields,
  ],
  relations: {
    location: { resource: "location", kind: "one", column: "location_id", references: "id" },
    orders: { resource: "pos_order", kind: "many", column: "session_id", references: "id" },
    opener: { resource: "user", kind: "one", column: "opened_by", references: "id" },
    closer: { resource: "user", kind: "one", column: "closed_by", references: "id" },
  },
});

export const posOrderResource = defineResource({
  ...CATALOG.pos_order,
  table: posOrder,
  display: "number",
  search: ["number"],
  defaultOrder: "id.desc",
  fields: [
    idField(),
    f.code("number", "Number", { ...ro, list: true, width: 150 }),
    f.enum("kind", "Kind", POS_ORDER_KINDS, { ...ro, list: true, width: 90 }),
    f.status("status", "Status", ORDER_STATUSES, { ...ro, list: true, width: 130 }),
    f.date("doc_date", "Date", { ...ro, list: true }),
    f.ref("session_id", "Session", "pos_session", "id", { ...ro, list: true }),
    f.ref("location_id", "Counter", "location", "name", { ...ro, list: true }),
    f.ref("company_id", "Customer", "company", "name", { ...ro, list: true }),
    f.ref("refund_of", "Refund of", "pos_order", "number", ro),
    f.money("subtotal", "Before discounts (incl. GST)", ro),
    f.money("discount_total", "Discounts", ro),
    f.money("net_total", "Net of GST", ro),
    f.money("tax_total", "GST included", { ...ro, list: true }),
    f.money("total", "Total (incl. GST)", { ...ro, list: true }),
    f.money("cost_total", "Cost", { ...ro, permission: COST_PERMISSION }),
    f.ref("created_by", "Cashier", "user", "name", { ...ro, list: true }),
    ...auditFields,
  ],
  relations: {
    lines: { resource: "pos_order_line", kind: "many", column: "pos_order_id", references: "id" },
    payments: { resource: "pos_payment", kind: "many", column: "pos_order_id", references: "id" },
    session: { resource: "pos_session", kind: "one", column: "session_id", references: "id" },
    location: { resource: "location", kind: "one", column: "location_id", references: "id" },
    company: { resource: "company", kind: "one", column: "company_id", references: "id" },
    cashier: { resource: "user", kind: "one", column: "created_by", references: "id" },
  },
});

export const posOrderLineResource = defineResource({
  ...CATALOG.pos_order_line,
  table: posOrderLine,
  display: "description",
  search: ["description", "sku"],
  defaultOrder: "pos_order_id.asc,line_no.asc",
  keptCount: false,
  fields: [
    idField(),
    f.ref("pos_order_id", "Order", "pos_order", "number", ro),
    f.integer("line_no", "Line", ro),
    f.ref("product_id", "Product", "product", "name", { ...ro, list: true }),
    f.code("sku", "SKU", ro),
    f.name("description", "Description", { ...ro, list: true }),
    f.number("qty", "Qty", { ...ro, list: true }),
    f.money("unit_price", "Price (incl. GST)", { ...ro, list: true }),
    f.money("unit_cost", "Unit cost", { ...ro, permission: COST_PERMISSION }),
    f.percent("discount_percent", "Discount %", { ...ro, list: true }),
    f.money("discount_amount", "Discount", ro),
    f.code("tax_code", "Tax", ro),
    f.money("line_total", "Amount (incl. GST)", { ...ro, list: true }),
    f.ref("source_line_id", "Refunds line", "pos_order_line", "description", ro),
    f.number("qty_refunded", "Refunded", { ...ro, list: true }),
  ],
  relations: {
    order: { resource: "pos_order", kind: "one", column: "pos_order_id", references: "id" },
    product: { resource: "product", kind: "one", column: "product_id", references: "id" },
  },
});

export const posPaymentResource = defineResource({
  ...CATALOG.pos_payment,
  table: posPayment,
  display: "method",
  search: [],
  defaultOrder: "id.asc",
  keptCount: false,
  fields: [
    idField(),
    f.ref("pos_order_id", "Order", "pos_order", "number", { ...ro, list: true }),
    f.ref("session_id", "Session", "pos_session", "id", ro),
    f.enum("method", "Method", POS_PAYMENT_METHODS, { ...ro, list: true }),
    f.money("amount", "Amount", { ...ro, list: true }),
    f.money("tendered", "Tendered", { ...ro, list: true }),
    f.money("change_given", "Change", { ...ro, list: true }),
    f.text("reference", "Reference", ro),
    { name: "created_at", label: "Created", kind: "datetime", readOnly: true, form: false },
  ],
  relations: {
    order: { resource: "pos_order", kind: "one", column: "pos_order_id", references: "id" },
  },
});

// The favourites grid in its order; the counter reads it (cached for offline), pos_favourites_set writes it.
export const posFavouriteResource = defineResource({
  ...CATALOG.pos_favourite,
  table: posFavourite,
  display: "position",
  search: [],
  defaultOrder: "position.asc",
  keptCount: false,
  fields: [
    idField(),
    f.ref("product_id", "Product", "product", "name", { ...ro, list: true }),
    f.integer("position", "Position", { ...ro, list: true }),
  ],
  relations: {
    product: { resource: "product", kind: "one", column: "product_id", references: "id" },
  },
});

export const POS_RESOURCES: readonly ResourceDef[] = [
  posSessionResource,
  posOrderResource,
  posOrderLineResource,
  posPaymentResource,
  posFavouriteResource,
];
