import type { Requirement } from "../access.ts";
import {
  MARKETPLACE_ORDER_STATUSES,
  marketplaceAccount,
  marketplaceMessage,
  marketplaceProduct,
  marketplaceSalesOrder,
  marketplaceSalesOrderLine,
  marketplaceThread,
  marketplaceThreadRead,
  STOCK_LEVELS,
} from "../db/marketplace-schema.ts";
import { defineResource } from "./define.ts";
import { auditFields, f, idField } from "./fields.ts";
import type { ResourceDef } from "./types.ts";

// Issue 23: the marketplace (Premium; DESIGN §2.3.2). Every table is read through /rest/v1 (and realtime) and
// written only by the marketplace module's commands. Who reads which rows is `shared` (access.ts): profiles and
// listings by every Premium workspace while published, orders, lines, threads and messages by the two parties.

const ro = { readOnly: true, form: false };
const readOnly = { scope: "tenant", feature: "marketplace", actions: ["read"] } as const;

export const marketplaceAccountResource = defineResource({
  ...readOnly,
  name: "marketplace_account",
  title: "Seller profile",
  plural: "Seller profiles",
  route: null,
  shared: "published",
  table: marketplaceAccount,
  display: "display_name",
  search: ["display_name", "about"],
  defaultOrder: "display_name.asc",
  fields: [
    idField(),
    f.name("display_name", "Display name", { required: true, list: true }),
    f.textarea("about", "About"),
    f.url("logo_url", "Logo"),
    f.tags("categories", "Categories", { list: true }),
    f.code("uen", "UEN", ro),
    f.tags("delivery_areas", "Delivery areas"),
    f.money("min_order_value", "Minimum order"),
    f.text("payment_terms", "Payment terms"),
    f.boolean("published", "Published", { list: true }),
    f.integer("rating_count", "Ratings", ro),
    f.integer("rating_total", "Rating total", ro),
    ...auditFields,
  ],
  relations: {
    listings: { resource: "marketplace_product", kind: "many", column: "account_id", references: "id" },
  },
});

export const marketplaceProductResource = defineResource({
  ...readOnly,
  name: "marketplace_product",
  title: "Listing",
  plural: "Listings",
  route: null,
  shared: "published",
  table: marketplaceProduct,
  display: "title",
  search: ["title"],
  defaultOrder: "title.asc",
  fields: [
    idField(),
    f.ref("account_id", "Seller", "marketplace_account", "display_name", ro),
    f.number("product_id", "Product", ro),
    f.name("title", "Title", { required: true, list: true }),
    f.textarea("description", "Description"),
    f.name("category", "Category", { list: true }),
    f.code("unit", "Unit"),
    f.money("price", "Price", { list: true }),
    f.text("price_tiers", "Tiered prices", ro),
    f.number("moq", "Minimum order quantity", { list: true }),
    f.integer("lead_time_days", "Lead time (days)", { list: true }),
    f.enum("stock_level", "Stock", STOCK_LEVELS, ro),
    f.boolean("show_stock", "Show the stock figure"),
    f.number("stock_qty", "In stock", ro),
    f.url("photo_url", "Photo"),
    f.boolean("published", "Published", { list: true }),
    f.datetime("published_at", "Published", ro),
    ...auditFields,
  ],
  relations: {
    account: { resource: "marketplace_account", kind: "one", column: "account_id", references: "id" },
  },
});

export const marketplaceSalesOrderResource = defineResource({
  ...readOnly,
  name: "marketplace_sales_order",
  title: "Marketplace order",
  plural: "Marketplace orders",
  route: null,
  shared: "parties",
  table: marketplaceSalesOrder,
  display: "number",
  search: ["number", "seller_name", "buyer_name"],
  defaultOrder: "placed_at.desc,id.desc",
  keptCount: false,
  fields: [
    idField(),
    f.code("number", "Number", { ...ro, list: true }),
    f.text("seller_name", "Seller", { ...ro, list: true }),
    f.text("buyer_name", "Buyer", { ...ro, list: true }),
    f.text("seller_workspace_id", "Seller workspace", ro),
    f.text("buyer_workspace_id", "Buyer workspace", ro),
    f.number("seller_account_id", "Seller profile", ro),
    f.status("status", "Status", MARKETPLACE_ORDER_STATUSES, { ...ro, list: true }),
    f.textarea("note", "Note", ro),
    f.textarea("reject_reason", "Reason rejected", ro),
    f.money("subtotal", "Subtotal", ro),
    f.money("tax_total", "GST", ro),
    f.money("total", "Total", { ...ro, list: true }),
    f.datetime("placed_at", "Placed", { ...ro, list: true }),
    f.datetime("decided_at", "Decided", ro),
    // Each side reads only its own document's id (the other's is null to it).
    f.number("sales_order_id", "Sales order", { ...ro, readBy: "seller_workspace_id" }),
    f.number("purchase_order_id", "Purchase order", { ...ro, readBy: "buyer_workspace_id" }),
    f.number("delivered", "Delivered", ro),
    f.number("invoiced", "Invoiced", ro),
    f.number("received", "Received", ro),
    f.number("paid", "Paid", ro),
    f.datetime("fulfilled_at", "Fulfilled", ro),
    f.integer("rating", "Rating", ro),
    f.textarea("rating_note", "Rating note", ro),
    ...auditFields,
  ],
  relations: {
    lines: { resource: "marketplace_sales_order_line", kind: "many", column: "order_id", references: "id" },
  },
});

export const marketplaceSalesOrderLineResource = defineResource({
  ...readOnly,
  name: "marketplace_sales_order_line",
  title: "Marketplace order line",
  plural: "Marketplace order lines",
  route: null,
  shared: "parties",
  permissionOf: "marketplace_sales_order",
  keptCount: false,
  table: marketplaceSalesOrderLine,
  display: "title",
  search: ["title"],
  defaultOrder: "id.asc",
  fields: [
    idField(),
    f.number("order_id", "Order", ro),
    f.number("marketplace_product_id", "Listing", ro),
    f.number("product_id", "Product", ro),
    f.text("title", "Title", ro),
    f.code("unit", "Unit", ro),
    f.number("qty", "Quantity", ro),
    f.money("unit_price", "Unit price", ro),
    f.money("line_total", "Line total", ro),
    ...auditFields,
  ],
  relations: {},
});

export const marketplaceThreadResource = defineResource({
  ...readOnly,
  name: "marketplace_thread",
  title: "Marketplace chat",
  plural: "Marketplace chats",
  route: null,
  shared: "parties",
  permissionOf: "marketplace_message",
  keptCount: false,
  table: marketplaceThread,
  display: "subject",
  search: ["subject"],
  defaultOrder: "last_message_at.desc",
  fields: [
    idField(),
    f.text("subject", "Subject", { ...ro, list: true }),
    f.text("seller_name", "Seller", ro),
    f.text("buyer_name", "Buyer", ro),
    f.text("seller_workspace_id", "Seller workspace", ro),
    f.text("buyer_workspace_id", "Buyer workspace", ro),
    f.number("marketplace_product_id", "Listing", ro),
    f.number("marketplace_sales_order_id", "Order", ro),
    f.datetime("last_message_at", "Last message", ro),
    f.text("last_message", "Last message", ro),
    ...auditFields,
  ],
  relations: {},
});

export const marketplaceMessageResource = defineResource({
  ...readOnly,
  name: "marketplace_message",
  title: "Marketplace message",
  plural: "Marketplace messages",
  route: null,
  shared: "parties",
  keptCount: false,
  table: marketplaceMessage,
  display: "body",
  search: ["body"],
  defaultOrder: "created_at.asc,id.asc",
  fields: [
    idField(),
    f.number("thread_id", "Chat", ro),
    f.text("seller_workspace_id", "Seller workspace", ro),
    f.text("buyer_workspace_id", "Buyer workspace", ro),
    f.text("sender_workspace_id", "Sender workspace", ro),
    f.text("sender_user_id", "Sender", ro),
    f.text("sender_name", "Sender", ro),
    f.textarea("body", "Message", ro),
    f.url("attachment_url", "Attachment", ro),
    f.text("attachment_name", "File", ro),
    f.text("attachment_mime", "File type", ro),
    f.integer("attachment_size", "File size", ro),
    f.text("attachment_key", "Storage key", { ...ro, serverOnly: true }), // where the file is kept: the server's
    ...auditFields,
  ],
  relations: {},
});

export const marketplaceThreadReadResource = defineResource({
  ...readOnly,
  name: "marketplace_thread_read",
  title: "Chat read marker",
  plural: "Chat read markers",
  route: null,
  permissionOf: "marketplace_message",
  keptCount: false,
  table: marketplaceThreadRead,
  display: "id",
  search: [],
  defaultOrder: "id.asc",
  fields: [
    idField(),
    f.number("thread_id", "Chat", ro),
    f.text("user_id", "User", ro),
    f.datetime("read_at", "Read", ro),
  ],
  relations: {},
});

export const MARKETPLACE_RESOURCES: readonly ResourceDef[] = [
  marketplaceAccountResource,
  marketplaceProductResource,
  marketplaceSalesOrderResource,
  marketplaceSalesOrderLineResource,
  marketplaceThreadResource,
  marketplaceMessageResource,
  marketplaceThreadReadResource,
];

// What each part of the marketplace needs (the server's commands and the web's offers read the same).
const need = (permission: string, does: string): Requirement => ({
  audience: "member",
  permission,
  does,
  feature: "marketplace",
  subject: "Marketplace",
});
export const MARKETPLACE_ACCESS = {
  browse: need("marketplace_product.read", "browse the marketplace"),
  sell: need("marketplace_product.create", "publish listings on the marketplace"),
  profile: need("marketplace_account.update", "keep the marketplace seller profile"),
  orders: need("marketplace_sales_order.read", "read marketplace orders"),
  buy: need("marketplace_sales_order.create", "order on the marketplace"),
  decide: need("marketplace_sales_order.approve", "accept or reject marketplace orders"),
  chat: need("marketplace_message.create", "chat on the marketplace"),
  readChat: need("marketplace_message.read", "read marketplace chats"),
} as const;
