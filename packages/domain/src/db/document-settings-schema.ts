import { sql } from "drizzle-orm";
import { boolean, foreignKey, jsonb, numeric, pgTable, primaryKey, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenantPolicy } from "./columns.ts";
import { authUser, workspace } from "./platform-schema.ts";

// A workspace's document settings (issue 10 §1, §2): one row per workspace, absent until first saved (the defaults
// then apply). `prefixes`: { <document type>: "PFX" } overriding DESIGN §2.3.1's list; the allowances are % of a
// line's quantity (ERPNext's over_delivery_receipt_allowance / over_billing_allowance); negative stock refused unless
// allowed.
export const documentSetting = pgTable(
  "document_setting",
  {
    workspaceId: uuid("workspace_id").notNull(),
    prefixes: jsonb("prefixes").notNull().default(sql`'{}'::jsonb`),
    overDeliveryAllowance: numeric("over_delivery_allowance", { precision: 5, scale: 2 }).notNull().default(sql`0`),
    overBillingAllowance: numeric("over_billing_allowance", { precision: 5, scale: 2 }).notNull().default(sql`0`),
    allowNegativeStock: boolean("allow_negative_stock").notNull().default(false),
    updatedBy: uuid("updated_by").references(() => authUser.id),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId] }),
    foreignKey({ columns: [t.workspaceId], foreignColumns: [workspace.id] }),
    tenantPolicy("document_setting"),
  ],
).enableRLS();
