import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { sameWorkspace, tenantColumns, tenantKeys, timestamps } from "./columns.ts";
import { company } from "./company-schema.ts";
import {
  documentHeaderColumns,
  documentHeaderKeys,
  documentLineColumns,
  documentLineKeys,
  drawnQuantities,
} from "./document-columns.ts";
import { location, product } from "./master-schema.ts";
import { user, workspace } from "./platform-schema.ts";

// Issue 10 §2 "Orders and order forms" and "Delivery instructions" (DESIGN §2.3.1 tables `order_form`,
// `customer_order`, `delivery_instruction`).

// A public link a workspace shares with its customers: the products it offers at the form's prices, each with a
// minimum quantity. The token is made by the database (two random UUIDs, 244 random bits, as 64 hex digits); the
// public route finds a form by the SHA-256 of what it is given, so comparing never runs over the secret itself.
export const orderForm = pgTable(
  "order_form",
  {
    ...tenantColumns,
    title: text("title").notNull(),
    intro: text("intro"),
    companyId: bigint("company_id", { mode: "number" }), // only this customer's orders; null: anyone with the link
    active: boolean("active").notNull().default(true),
    token: text("token").notNull().default(sql`replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`),
    tokenHash: text("token_hash").notNull().generatedAlwaysAs(sql`encode(sha256(decode(token, 'hex')), 'hex')`),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("order_form", t, workspace),
    uniqueIndex("order_form_token_hash_key").on(t.tokenHash),
    sameWorkspace("order_form_company_fk", [t.workspaceId, t.companyId], company),
  ],
).enableRLS();

export const orderFormItem = pgTable(
  "order_form_item",
  {
    ...tenantColumns,
    orderFormId: bigint("order_form_id", { mode: "number" }).notNull(),
    productId: bigint("product_id", { mode: "number" }).notNull(),
    price: numeric("price", { precision: 16, scale: 4 }).notNull(),
    minQty: numeric("min_qty", { precision: 14, scale: 3 }).notNull().default(sql`1`),
    sortOrder: integer("sort_order").notNull().default(0),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("order_form_item", t, workspace),
    uniqueIndex("order_form_item_product_key").on(t.workspaceId, t.orderFormId, t.productId),
    sameWorkspace("order_form_item_form_fk", [t.workspaceId, t.orderFormId], orderForm, "cascade"),
    sameWorkspace("order_form_item_product_fk", [t.workspaceId, t.productId], product),
    check("order_form_item_price_not_negative", sql`${t.price} >= 0`),
    check("order_form_item_min_qty_positive", sql`${t.minQty} > 0`),
  ],
).enableRLS();

// What a customer sent through an order form (the spec's *orders*): it arrives Received with its ORD number; staff
// confirm it into a sales order or reject it. The customer may be unknown (null) until staff choose one.
export const customerOrder = pgTable(
  "customer_order",
  {
    ...documentHeaderColumns,
    companyId: bigint("company_id", { mode: "number" }),
    orderFormId: bigint("order_form_id", { mode: "number" }),
    customerName: text("customer_name"),
    customerCompany: text("customer_company"),
    customerEmail: text("customer_email"),
    customerPhone: text("customer_phone"),
    deliveryAddress: text("delivery_address"),
  },
  (t) => [
    ...documentHeaderKeys("customer_order", t),
    sameWorkspace("customer_order_form_fk", [t.workspaceId, t.orderFormId], orderForm),
  ],
).enableRLS();

export const customerOrderLine = pgTable(
  "customer_order_line",
  { ...documentLineColumns, customerOrderId: bigint("customer_order_id", { mode: "number" }).notNull() },
  (t) => documentLineKeys("customer_order_line", t, { column: t.customerOrderId, table: customerOrder }),
).enableRLS();

// What to pick from which location for which sales order lines, when, and who drives it (ERPNext's pick list); a
// delivery order is made from it, its lines drawing qty_delivered from the instruction's lines and, through them,
// from the order's.
export const deliveryInstruction = pgTable(
  "delivery_instruction",
  {
    ...documentHeaderColumns,
    plannedDate: date("planned_date"),
    driverId: uuid("driver_id"), // a user of the same workspace (delivery_instruction_driver_fk), as a delivery's
    locationId: bigint("location_id", { mode: "number" }),
  },
  (t) => [
    ...documentHeaderKeys("delivery_instruction", t),
    index("delivery_instruction_driver_idx").on(t.workspaceId, t.driverId),
    sameWorkspace("delivery_instruction_driver_fk", [t.workspaceId, t.driverId], user),
    sameWorkspace("delivery_instruction_location_fk", [t.workspaceId, t.locationId], location),
  ],
).enableRLS();

export const deliveryInstructionLine = pgTable(
  "delivery_instruction_line",
  {
    ...documentLineColumns,
    ...drawnQuantities,
    locationId: bigint("location_id", { mode: "number" }),
    deliveryInstructionId: bigint("delivery_instruction_id", { mode: "number" }).notNull(),
  },
  (t) => [
    ...documentLineKeys("delivery_instruction_line", t, {
      column: t.deliveryInstructionId,
      table: deliveryInstruction,
    }),
    sameWorkspace("delivery_instruction_line_location_fk", [t.workspaceId, t.locationId], location),
  ],
).enableRLS();
