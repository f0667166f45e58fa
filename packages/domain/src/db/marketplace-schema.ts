import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgPolicy,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { currentWorkspace, searchIndexes, tenantColumns, tenantKeys, timestamps } from "./columns.ts";
import { authUser, workspace } from "./platform-schema.ts";

// Issue 23: the marketplace (Premium, both sides; DESIGN §2.3.2). The one place where a row of one workspace is
// read by another (DESIGN §2.2), and so the one place with policies beyond the tenant's own:
// - a seller's profile and its listings belong to the seller's workspace and are readable by every workspace while
//   published (the Premium check is the server's: the tier feature "marketplace");
// - an order, its lines, a thread and its messages belong to one party's workspace and are readable (and, for the
//   order and thread, written by the server's commands) by both parties — the buyer's and the seller's workspace —
//   and by no one else. An order and a thread live in the seller's workspace; a message in its sender's.
// Buyers never read the seller's product, stock or customers: a listing carries its own snapshot (title, price,
// stock shown as in / low / out) and a placed order its own lines.

export const MARKETPLACE_ORDER_STATUSES = ["placed", "accepted", "rejected", "cancelled", "fulfilled"] as const;
export type MarketplaceOrderStatus = (typeof MARKETPLACE_ORDER_STATUSES)[number];
export const STOCK_LEVELS = ["in", "low", "out"] as const;
export type StockLevel = (typeof STOCK_LEVELS)[number];

const money = (name: string) => numeric(name, { precision: 14, scale: 2 });
const qty = (name: string) => numeric(name, { precision: 14, scale: 3 });

// Readable by every workspace while published (a signed-in workspace: the setting missing fails closed).
const publishedPolicy = (table: string) =>
  pgPolicy(`${table}_published`, {
    as: "permissive",
    for: "select",
    to: "workmetrics_app",
    using: sql`published and ${currentWorkspace} is not null`,
  });

// Readable and writable by the two parties (the server's commands write; /rest/v1 only reads).
const partiesPolicy = (table: string) =>
  pgPolicy(`${table}_parties`, {
    as: "permissive",
    for: "all",
    to: "workmetrics_app",
    using: sql`${currentWorkspace} in (buyer_workspace_id, seller_workspace_id)`,
    withCheck: sql`${currentWorkspace} in (buyer_workspace_id, seller_workspace_id)`,
  });

export const marketplaceAccount = pgTable(
  "marketplace_account",
  {
    ...tenantColumns,
    displayName: text("display_name").notNull(),
    about: text("about"),
    logoUrl: text("logo_url"),
    categories: text("categories").array().notNull().default(sql`'{}'::text[]`),
    uen: text("uen"), // the business's UEN, shown as its verified identity (from the workspace)
    deliveryAreas: text("delivery_areas").array().notNull().default(sql`'{}'::text[]`),
    minOrderValue: money("min_order_value").notNull().default("0"),
    paymentTerms: text("payment_terms"),
    published: boolean("published").notNull().default(false),
    ratingCount: integer("rating_count").notNull().default(0),
    ratingTotal: integer("rating_total").notNull().default(0),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("marketplace_account", t, workspace),
    uniqueIndex("marketplace_account_workspace_key").on(t.workspaceId),
    check("marketplace_account_min_order", sql`${t.minOrderValue} >= 0`),
    publishedPolicy("marketplace_account"),
  ],
).enableRLS();

export const marketplaceProduct = pgTable(
  "marketplace_product",
  {
    ...tenantColumns,
    accountId: bigint("account_id", { mode: "number" }).notNull(),
    productId: bigint("product_id", { mode: "number" }).notNull(),
    title: text("title").notNull(),
    description: text("description"),
    category: text("category"),
    unit: text("unit"),
    price: money("price").notNull(),
    // Tiered prices by quantity: [{min_qty, price}], each from min_qty up (the base price below the first).
    priceTiers: jsonb("price_tiers").notNull().default(sql`'[]'::jsonb`),
    moq: qty("moq").notNull().default("1"),
    leadTimeDays: integer("lead_time_days").notNull().default(0),
    stockLevel: text("stock_level", { enum: STOCK_LEVELS }).notNull().default("in"),
    showStock: boolean("show_stock").notNull().default(false), // the exact figure shown, when the seller chooses
    stockQty: qty("stock_qty"), // only set when show_stock
    photoUrl: text("photo_url"),
    // The seller's own photos, in order (the first is the card's): [{id, name, mime, size}]. Each is a file of the
    // seller's files bucket (counted in its quota) under marketplace/listings/<listing id>/<photo id>; buyers read
    // one through marketplace_listing_photo while the listing is published, never through /storage.
    photos: jsonb("photos").notNull().default(sql`'[]'::jsonb`),
    published: boolean("published").notNull().default(false),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    // Kept by triggers (migration 0051) from the seller's profile, so that a search reads one table: whether the
    // profile is published, and the lower-cased words a buyer's text search matches (title, category, seller).
    sellerPublished: boolean("seller_published").notNull().default(false),
    searchText: text("search_text").notNull().default(""),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("marketplace_product", t, workspace),
    uniqueIndex("marketplace_product_product_key").on(t.workspaceId, t.productId),
    index("marketplace_product_published_idx").on(t.published, t.category, t.price),
    ...searchIndexes("marketplace_product", [t.title, t.searchText]),
    // The buyers' browse order (title, id) and its category list, over the listings others read.
    index("marketplace_product_browse_idx").on(t.title, t.id).where(sql`${t.published} and ${t.sellerPublished}`),
    index("marketplace_product_category_idx").on(t.category).where(sql`${t.published} and ${t.sellerPublished}`),
    foreignKey({
      name: "marketplace_product_account_fk",
      columns: [t.workspaceId, t.accountId],
      foreignColumns: [marketplaceAccount.workspaceId, marketplaceAccount.id],
    }),
    check("marketplace_product_price", sql`${t.price} >= 0`),
    check("marketplace_product_moq", sql`${t.moq} > 0`),
    check("marketplace_product_lead_time", sql`${t.leadTimeDays} >= 0 and ${t.leadTimeDays} <= 365`),
    // A listing is read by others while it and its seller's profile are published (unpublishing the profile hides
    // every listing at once: the trigger on marketplace_account copies `published` into `seller_published`).
    pgPolicy("marketplace_product_published", {
      as: "permissive",
      for: "select",
      to: "workmetrics_app",
      using: sql`published and seller_published and ${currentWorkspace} is not null`,
    }),
  ],
).enableRLS();

export const marketplaceSalesOrder = pgTable(
  "marketplace_sales_order",
  {
    ...tenantColumns, // the seller's workspace
    number: text("number").notNull(),
    sellerWorkspaceId: uuid("seller_workspace_id").notNull(),
    buyerWorkspaceId: uuid("buyer_workspace_id").notNull(),
    sellerAccountId: bigint("seller_account_id", { mode: "number" }).notNull(),
    sellerName: text("seller_name").notNull(),
    buyerName: text("buyer_name").notNull(),
    status: text("status", { enum: MARKETPLACE_ORDER_STATUSES }).notNull().default("placed"),
    note: text("note"),
    rejectReason: text("reject_reason"),
    subtotal: money("subtotal").notNull().default("0"),
    taxTotal: money("tax_total").notNull().default("0"),
    total: money("total").notNull().default("0"),
    placedBy: uuid("placed_by").references(() => authUser.id),
    placedAt: timestamp("placed_at", { withTimezone: true }).notNull().defaultNow(),
    decidedBy: uuid("decided_by").references(() => authUser.id),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    salesOrderId: bigint("sales_order_id", { mode: "number" }), // in the seller's books
    purchaseOrderId: bigint("purchase_order_id", { mode: "number" }), // in the buyer's books
    // Each side's progress, as its own documents are submitted (0 to 1 of the order's quantity or total).
    delivered: numeric("delivered", { precision: 5, scale: 4 }).notNull().default("0"),
    invoiced: numeric("invoiced", { precision: 5, scale: 4 }).notNull().default("0"),
    received: numeric("received", { precision: 5, scale: 4 }).notNull().default("0"),
    paid: numeric("paid", { precision: 5, scale: 4 }).notNull().default("0"),
    fulfilledAt: timestamp("fulfilled_at", { withTimezone: true }),
    rating: integer("rating"),
    ratingNote: text("rating_note"),
    ratedAt: timestamp("rated_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("marketplace_sales_order", t, workspace),
    uniqueIndex("marketplace_sales_order_number_key").on(t.workspaceId, t.number),
    index("marketplace_sales_order_buyer_idx").on(t.buyerWorkspaceId, t.placedAt),
    index("marketplace_sales_order_seller_idx").on(t.sellerWorkspaceId, t.placedAt),
    foreignKey({
      name: "marketplace_sales_order_buyer_fk",
      columns: [t.buyerWorkspaceId],
      foreignColumns: [workspace.id],
    }),
    foreignKey({
      name: "marketplace_sales_order_account_fk",
      columns: [t.workspaceId, t.sellerAccountId],
      foreignColumns: [marketplaceAccount.workspaceId, marketplaceAccount.id],
    }),
    check("marketplace_sales_order_seller_owns", sql`${t.workspaceId} = ${t.sellerWorkspaceId}`),
    check("marketplace_sales_order_two_parties", sql`${t.buyerWorkspaceId} <> ${t.sellerWorkspaceId}`),
    check("marketplace_sales_order_rating", sql`${t.rating} is null or ${t.rating} between 1 and 5`),
    partiesPolicy("marketplace_sales_order"),
  ],
).enableRLS();

export const marketplaceSalesOrderLine = pgTable(
  "marketplace_sales_order_line",
  {
    ...tenantColumns, // the seller's workspace, as its order
    orderId: bigint("order_id", { mode: "number" }).notNull(),
    sellerWorkspaceId: uuid("seller_workspace_id").notNull(),
    buyerWorkspaceId: uuid("buyer_workspace_id").notNull(),
    marketplaceProductId: bigint("marketplace_product_id", { mode: "number" }).notNull(),
    productId: bigint("product_id", { mode: "number" }).notNull(), // the seller's product
    title: text("title").notNull(),
    unit: text("unit"),
    qty: qty("qty").notNull(),
    unitPrice: money("unit_price").notNull(), // the listing's price when the order was placed
    lineTotal: money("line_total").notNull(),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("marketplace_sales_order_line", t, workspace),
    index("marketplace_sales_order_line_order_idx").on(t.workspaceId, t.orderId),
    foreignKey({
      name: "marketplace_sales_order_line_order_fk",
      columns: [t.workspaceId, t.orderId],
      foreignColumns: [marketplaceSalesOrder.workspaceId, marketplaceSalesOrder.id],
    }).onDelete("cascade"),
    check("marketplace_sales_order_line_seller_owns", sql`${t.workspaceId} = ${t.sellerWorkspaceId}`),
    check("marketplace_sales_order_line_qty", sql`${t.qty} > 0`),
    partiesPolicy("marketplace_sales_order_line"),
  ],
).enableRLS();

export const marketplaceThread = pgTable(
  "marketplace_thread",
  {
    ...tenantColumns, // the seller's workspace
    sellerWorkspaceId: uuid("seller_workspace_id").notNull(),
    buyerWorkspaceId: uuid("buyer_workspace_id").notNull(),
    sellerName: text("seller_name").notNull(),
    buyerName: text("buyer_name").notNull(),
    marketplaceProductId: bigint("marketplace_product_id", { mode: "number" }),
    marketplaceSalesOrderId: bigint("marketplace_sales_order_id", { mode: "number" }),
    subject: text("subject").notNull(),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }).notNull().defaultNow(),
    lastMessage: text("last_message"),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("marketplace_thread", t, workspace),
    uniqueIndex("marketplace_thread_product_key")
      .on(t.workspaceId, t.buyerWorkspaceId, t.marketplaceProductId)
      .where(sql`marketplace_product_id is not null`),
    uniqueIndex("marketplace_thread_order_key")
      .on(t.workspaceId, t.marketplaceSalesOrderId)
      .where(sql`marketplace_sales_order_id is not null`),
    index("marketplace_thread_buyer_idx").on(t.buyerWorkspaceId, t.lastMessageAt),
    foreignKey({ name: "marketplace_thread_buyer_fk", columns: [t.buyerWorkspaceId], foreignColumns: [workspace.id] }),
    check("marketplace_thread_seller_owns", sql`${t.workspaceId} = ${t.sellerWorkspaceId}`),
    check("marketplace_thread_two_parties", sql`${t.buyerWorkspaceId} <> ${t.sellerWorkspaceId}`),
    partiesPolicy("marketplace_thread"),
  ],
).enableRLS();

export const marketplaceMessage = pgTable(
  "marketplace_message",
  {
    ...tenantColumns, // the sender's workspace
    threadId: bigint("thread_id", { mode: "number" }).notNull(),
    sellerWorkspaceId: uuid("seller_workspace_id").notNull(),
    buyerWorkspaceId: uuid("buyer_workspace_id").notNull(),
    senderWorkspaceId: uuid("sender_workspace_id").notNull(),
    senderUserId: uuid("sender_user_id").references(() => authUser.id),
    senderName: text("sender_name").notNull(),
    body: text("body").notNull(),
    attachmentUrl: text("attachment_url"),
    // A file sent with the message, kept in the sender's workspace storage under `attachment_key` (no bucket: it is
    // the thread's, read by the two parties through marketplace_attachment, never through /storage).
    attachmentName: text("attachment_name"),
    attachmentMime: text("attachment_mime"),
    attachmentSize: integer("attachment_size"),
    attachmentKey: text("attachment_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...tenantKeys("marketplace_message", t, workspace),
    index("marketplace_message_thread_idx").on(t.sellerWorkspaceId, t.threadId, t.createdAt),
    foreignKey({
      name: "marketplace_message_thread_fk",
      columns: [t.sellerWorkspaceId, t.threadId],
      foreignColumns: [marketplaceThread.workspaceId, marketplaceThread.id],
    }).onDelete("cascade"),
    check("marketplace_message_sender_owns", sql`${t.workspaceId} = ${t.senderWorkspaceId}`),
    check(
      "marketplace_message_sender_party",
      sql`${t.senderWorkspaceId} in (${t.buyerWorkspaceId}, ${t.sellerWorkspaceId})`,
    ),
    check("marketplace_message_body", sql`length(${t.body}) between 1 and 4000`),
    partiesPolicy("marketplace_message"),
  ],
).enableRLS();

// Where each member has read a thread to (unread counts): the reader's workspace's own rows.
export const marketplaceThreadRead = pgTable(
  "marketplace_thread_read",
  {
    ...tenantColumns,
    threadId: bigint("thread_id", { mode: "number" }).notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => authUser.id),
    readAt: timestamp("read_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...tenantKeys("marketplace_thread_read", t, workspace),
    uniqueIndex("marketplace_thread_read_key").on(t.workspaceId, t.threadId, t.userId),
  ],
).enableRLS();
