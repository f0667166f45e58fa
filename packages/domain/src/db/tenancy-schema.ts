import { bigint, boolean, integer, numeric, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenantColumns, tenantKeys, tenantPolicy, timestamps } from "./columns.ts";
import { authUser, tier, workspace } from "./platform-schema.ts";

// The subscription a workspace pays for (issue 4 item 6): tier, cycle, the price after any coupon.
export const subscription = pgTable(
  "subscription",
  {
    ...tenantColumns,
    tierId: integer("tier_id")
      .notNull()
      .references(() => tier.id),
    cycle: text("cycle").$type<"monthly" | "yearly">().notNull(),
    listPrice: numeric("list_price", { precision: 12, scale: 2 }).notNull(),
    discount: numeric("discount", { precision: 12, scale: 2 }).notNull().default("0"),
    price: numeric("price", { precision: 12, scale: 2 }).notNull(),
    couponCode: text("coupon_code"),
    status: text("status").$type<"active" | "cancelled">().notNull().default("active"),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull().defaultNow(),
    ...timestamps,
  },
  (t) => tenantKeys("subscription", t, workspace),
).enableRLS();

// Platform coupons (issue 4 item 9): a percent or a fixed amount off, with validity and a usage limit.
export const coupon = pgTable("coupon", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
  code: text("code").notNull().unique(),
  kind: text("kind").$type<"percent" | "amount">().notNull(),
  value: numeric("value", { precision: 12, scale: 2 }).notNull(),
  validFrom: timestamp("valid_from", { withTimezone: true }),
  validUntil: timestamp("valid_until", { withTimezone: true }),
  usageLimit: integer("usage_limit"),
  timesUsed: integer("times_used").notNull().default(0),
  active: boolean("active").notNull().default(true),
  ...timestamps,
});

// Feedback any user sends; admins read it and mark it handled (issue 4 item 8).
export const feedback = pgTable(
  "feedback",
  {
    ...tenantColumns,
    userId: uuid("user_id")
      .notNull()
      .references(() => authUser.id),
    category: text("category").$type<"idea" | "problem" | "praise" | "question">().notNull(),
    message: text("message").notNull(),
    handledAt: timestamp("handled_at", { withTimezone: true }),
    handledBy: uuid("handled_by").references(() => authUser.id),
    ...timestamps,
  },
  (t) => tenantKeys("feedback", t, workspace),
).enableRLS();

// Usage credits granted or deducted by the platform operator, as a ledger (issue 4 item 9).
export const creditEntry = pgTable(
  "credit_entry",
  {
    ...tenantColumns,
    amount: numeric("amount", { precision: 12, scale: 2 }).notNull(),
    reason: text("reason").notNull(),
    createdBy: uuid("created_by").references(() => authUser.id),
    ...timestamps,
  },
  (t) => tenantKeys("credit_entry", t, workspace),
).enableRLS();

// How many rows each tenant table holds per workspace, kept by statement-level triggers (installed on every
// resource table at start, platform/db/row-counts.ts) in the writing transaction, so it is exact under MVCC: an
// unfiltered `count=exact` list reads one row instead of counting 200,000 (issue 5 item 8).
export const rowCount = pgTable(
  "row_count",
  {
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspace.id, { onDelete: "cascade" }),
    tableName: text("table_name").notNull(),
    n: bigint("n", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.tableName] }), tenantPolicy("row_count")],
).enableRLS();
