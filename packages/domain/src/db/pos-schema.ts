import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { sameWorkspace, tenantColumns, tenantKeys, timestamps } from "./columns.ts";
import { company } from "./company-schema.ts";
import { location, product } from "./master-schema.ts";
import { authUser, workspace } from "./platform-schema.ts";

// Issue 22 "Point of sale" (Premium; DESIGN §2.3.2 "POS"): a counter's session (opened with a counted float, closed
// with the counted cash: expected, counted, difference), and its orders. A pos_order is a sale or a refund
// (`kind`), numbered POS-YYYY-##### from the documents' number counter when it is made (a sale is made and paid in
// one command, never a draft). Prices at the counter include GST: a line's `unit_price` is GST-inclusive and the
// GST is extracted per order (9/109 of the standard-rated total, rounded half-up to cents). A refund's lines are
// negative and name the sale line they refund (`source_line_id`); the sale line keeps `qty_refunded`. Payments are
// pos_payment rows (negative on a refund); only cash gives change.

const money = (name: string) => numeric(name, { precision: 14, scale: 2 }).notNull().default(sql`0`);
const qty = (name: string) => numeric(name, { precision: 14, scale: 3 });
const price = (name: string) => numeric(name, { precision: 16, scale: 4 });

export const POS_SESSION_STATUSES = ["open", "closed"] as const;
export const POS_ORDER_KINDS = ["sale", "refund"] as const;
export const POS_PAYMENT_METHODS = ["cash", "card", "paynow", "voucher"] as const;
export type PosPaymentMethod = (typeof POS_PAYMENT_METHODS)[number];

export const posSession = pgTable(
  "pos_session",
  {
    ...tenantColumns,
    locationId: bigint("location_id", { mode: "number" }).notNull(),
    status: text("status", { enum: POS_SESSION_STATUSES }).notNull().default("open"),
    openingFloat: money("opening_float"),
    expectedCash: numeric("expected_cash", { precision: 14, scale: 2 }), // set at close
    countedCash: numeric("counted_cash", { precision: 14, scale: 2 }),
    difference: numeric("difference", { precision: 14, scale: 2 }), // counted − expected: + over, − short
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    openedBy: uuid("opened_by")
      .notNull()
      .references(() => authUser.id),
    closedBy: uuid("closed_by").references(() => authUser.id),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("pos_session", t, workspace),
    // One open session per cashier: the app resumes it rather than opening another.
    uniqueIndex("pos_session_open_key").on(t.workspaceId, t.openedBy).where(sql`status = 'open'`),
    index("pos_session_opened_idx").on(t.workspaceId, t.openedAt),
    sameWorkspace("pos_session_location_fk", [t.workspaceId, t.locationId], location),
    check("pos_session_float_not_negative", sql`${t.openingFloat} >= 0`),
  ],
).enableRLS();

export const posOrder = pgTable(
  "pos_order",
  {
    ...tenantColumns,
    number: text("number").notNull(),
    status: text("status").notNull().default("paid"), // paid; a sale refunded in part or whole: partly_refunded, refunded
    kind: text("kind", { enum: POS_ORDER_KINDS }).notNull().default("sale"),
    docDate: date("doc_date").notNull().default(sql`current_date`),
    sessionId: bigint("session_id", { mode: "number" }).notNull(),
    locationId: bigint("location_id", { mode: "number" }).notNull(),
    companyId: bigint("company_id", { mode: "number" }), // null: a walk-in customer
    refundOf: bigint("refund_of", { mode: "number" }), // the sale a refund refunds
    // GST-inclusive: total = Σ line_total; tax_total = the GST in it; net_total = total − tax_total.
    subtotal: money("subtotal"), // before line discounts, incl. GST
    discountTotal: money("discount_total"),
    netTotal: money("net_total"),
    taxTotal: money("tax_total"),
    total: money("total"),
    costTotal: money("cost_total"),
    receiptToken: text("receipt_token").notNull(), // the public e-receipt's unguessable address (/r/{token})
    emailedTo: text("emailed_to"),
    createdBy: uuid("created_by").references(() => authUser.id),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("pos_order", t, workspace),
    uniqueIndex("pos_order_number_key").on(t.workspaceId, t.number),
    uniqueIndex("pos_order_receipt_token_key").on(t.receiptToken),
    index("pos_order_date_idx").on(t.workspaceId, t.docDate, t.id),
    index("pos_order_session_idx").on(t.workspaceId, t.sessionId),
    index("pos_order_refund_of_idx").on(t.workspaceId, t.refundOf),
    sameWorkspace("pos_order_session_fk", [t.workspaceId, t.sessionId], posSession),
    sameWorkspace("pos_order_location_fk", [t.workspaceId, t.locationId], location),
    sameWorkspace("pos_order_company_fk", [t.workspaceId, t.companyId], company),
    sameWorkspace("pos_order_refund_of_fk", [t.workspaceId, t.refundOf], { workspaceId: t.workspaceId, id: t.id }),
  ],
).enableRLS();

export const posOrderLine = pgTable(
  "pos_order_line",
  {
    ...tenantColumns,
    posOrderId: bigint("pos_order_id", { mode: "number" }).notNull(),
    lineNo: integer("line_no").notNull(),
    productId: bigint("product_id", { mode: "number" }).notNull(),
    sku: text("sku"),
    description: text("description").notNull(),
    qty: qty("qty").notNull(), // negative on a refund
    unitPrice: price("unit_price").notNull(), // GST-inclusive
    unitCost: price("unit_cost").notNull().default(sql`0`),
    discountPercent: numeric("discount_percent", { precision: 5, scale: 2 }).notNull().default(sql`0`),
    discountAmount: money("discount_amount"),
    taxCode: text("tax_code").notNull().default("SR"),
    lineTotal: money("line_total"), // GST-inclusive, after the discount; negative on a refund
    sourceLineId: bigint("source_line_id", { mode: "number" }), // the sale line a refund line refunds
    qtyRefunded: qty("qty_refunded").notNull().default(sql`0`), // on a sale line: what refunds took back
  },
  (t) => [
    ...tenantKeys("pos_order_line", t, workspace),
    uniqueIndex("pos_order_line_no_key").on(t.workspaceId, t.posOrderId, t.lineNo),
    index("pos_order_line_source_idx").on(t.workspaceId, t.sourceLineId),
    index("pos_order_line_product_idx").on(t.workspaceId, t.productId),
    sameWorkspace("pos_order_line_order_fk", [t.workspaceId, t.posOrderId], posOrder, "cascade"),
    sameWorkspace("pos_order_line_product_fk", [t.workspaceId, t.productId], product),
    sameWorkspace("pos_order_line_source_fk", [t.workspaceId, t.sourceLineId], {
      workspaceId: t.workspaceId,
      id: t.id,
    }),
    check("pos_order_line_discount_range", sql`${t.discountPercent} >= 0 and ${t.discountPercent} <= 100`),
    check("pos_order_line_refunded_not_negative", sql`${t.qtyRefunded} >= 0`),
  ],
).enableRLS();

export const posPayment = pgTable(
  "pos_payment",
  {
    ...tenantColumns,
    posOrderId: bigint("pos_order_id", { mode: "number" }).notNull(),
    sessionId: bigint("session_id", { mode: "number" }).notNull(),
    method: text("method", { enum: POS_PAYMENT_METHODS }).notNull(),
    amount: money("amount"), // what the payment settles (tendered less change); negative on a refund
    tendered: money("tendered"), // what the customer handed over (cash)
    changeGiven: money("change_given"),
    reference: text("reference"), // a card's approval code, a PayNow reference, a voucher's code
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...tenantKeys("pos_payment", t, workspace),
    index("pos_payment_order_idx").on(t.workspaceId, t.posOrderId),
    index("pos_payment_session_idx").on(t.workspaceId, t.sessionId, t.method),
    sameWorkspace("pos_payment_order_fk", [t.workspaceId, t.posOrderId], posOrder, "cascade"),
    sameWorkspace("pos_payment_session_fk", [t.workspaceId, t.sessionId], posSession),
    check("pos_payment_change_cash_only", sql`${t.changeGiven} = 0 or ${t.method} = 'cash'`),
    check("pos_payment_change_not_negative", sql`${t.changeGiven} >= 0`),
  ],
).enableRLS();

// The favourites grid of the sale screen (issue 22): the products a shop manager chose for the counter's one-tap
// tiles, in their order (`position` 0, 1, …), one list per workspace. Written only by pos_favourites_set, which
// replaces the whole list; none chosen: the counter shows the first products of the catalogue.
export const POS_FAVOURITES_MAX = 24;

export const posFavourite = pgTable(
  "pos_favourite",
  {
    ...tenantColumns,
    productId: bigint("product_id", { mode: "number" }).notNull(),
    position: integer("position").notNull(),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("pos_favourite", t, workspace),
    uniqueIndex("pos_favourite_product_key").on(t.workspaceId, t.productId),
    uniqueIndex("pos_favourite_position_key").on(t.workspaceId, t.position),
    sameWorkspace("pos_favourite_product_fk", [t.workspaceId, t.productId], product, "cascade"),
    check(
      "pos_favourite_position_range",
      sql`${t.position} >= 0 and ${t.position} < ${sql.raw(String(POS_FAVOURITES_MAX))}`,
    ),
  ],
).enableRLS();
