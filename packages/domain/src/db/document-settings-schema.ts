import { sql } from "drizzle-orm";
import { bigint, boolean, foreignKey, jsonb, numeric, pgTable, primaryKey, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenantPolicy } from "./columns.ts";
import { location } from "./master-schema.ts";
import { authUser, workspace } from "./platform-schema.ts";

// A workspace's document settings (issue 10 §1, §2): one row per workspace, absent until first saved (the defaults
// then apply). `prefixes`: { <document type>: "PFX" } overriding DESIGN §2.3.1's list; the allowances are % of a
// line's quantity (ERPNext's over_delivery_receipt_allowance / over_billing_allowance); negative stock refused unless
// allowed. Purchasing (issue 11): a purchase order whose total in base currency is above po_approval_threshold waits for
// approval (null: none does); the three-way check's tolerances — quantity % and price % over, and an absolute cap in
// money on either difference (null: no cap).
export const documentSetting = pgTable(
  "document_setting",
  {
    workspaceId: uuid("workspace_id").notNull(),
    prefixes: jsonb("prefixes").notNull().default(sql`'{}'::jsonb`),
    overDeliveryAllowance: numeric("over_delivery_allowance", { precision: 5, scale: 2 }).notNull().default(sql`0`),
    overBillingAllowance: numeric("over_billing_allowance", { precision: 5, scale: 2 }).notNull().default(sql`0`),
    allowNegativeStock: boolean("allow_negative_stock").notNull().default(false),
    poApprovalThreshold: numeric("po_approval_threshold", { precision: 14, scale: 2 }),
    matchQtyTolerance: numeric("match_qty_tolerance", { precision: 5, scale: 2 }).notNull().default(sql`0`),
    matchPriceTolerance: numeric("match_price_tolerance", { precision: 5, scale: 2 }).notNull().default(sql`0`),
    matchAmountTolerance: numeric("match_amount_tolerance", { precision: 14, scale: 2 }),
    // Issue 21 §1: where a delivery or a receipt goes from or to when its order names no location (null: the only
    // ordinary location when there is one, else the clerk chooses).
    defaultLocationId: bigint("default_location_id", { mode: "number" }),
    updatedBy: uuid("updated_by").references(() => authUser.id),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId] }),
    foreignKey({ columns: [t.workspaceId], foreignColumns: [workspace.id] }),
    foreignKey({
      name: "document_setting_default_location_fk",
      columns: [t.workspaceId, t.defaultLocationId],
      foreignColumns: [location.workspaceId, location.id],
    }),
    tenantPolicy("document_setting"),
  ],
).enableRLS();
