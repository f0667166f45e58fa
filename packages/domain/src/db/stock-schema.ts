import { sql } from "drizzle-orm";
import { bigint, check, index, numeric, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { sameWorkspace, tenantColumns, tenantKeys, timestamps } from "./columns.ts";
import { company } from "./company-schema.ts";
import { location, product } from "./master-schema.ts";
import { workspace } from "./platform-schema.ts";

// The append-only stock ledger (DESIGN §2.3.1, issue 10 §2): + in, − out; stock on hand per product and location is
// the sum of qty. A cancelled document writes the opposite moves, never deletes its own.
export const stockMove = pgTable(
  "stock_move",
  {
    ...tenantColumns,
    productId: bigint("product_id", { mode: "number" }).notNull(),
    locationId: bigint("location_id", { mode: "number" }).notNull(),
    qty: numeric("qty", { precision: 14, scale: 3 }).notNull(),
    unitCost: numeric("unit_cost", { precision: 16, scale: 4 }).notNull().default("0"),
    docType: text("doc_type").notNull(),
    docId: bigint("doc_id", { mode: "number" }).notNull(),
    docLineId: bigint("doc_line_id", { mode: "number" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...tenantKeys("stock_move", t, workspace),
    index("stock_move_product_idx").on(t.workspaceId, t.productId, t.locationId),
    index("stock_move_doc_idx").on(t.workspaceId, t.docType, t.docId),
    // The stock card (issue 11 "Stock"): one product's moves in the order they happened, paged.
    index("stock_move_card_idx").on(t.workspaceId, t.productId, t.createdAt, t.id),
    sameWorkspace("stock_move_product_fk", [t.workspaceId, t.productId], product),
    sameWorkspace("stock_move_location_fk", [t.workspaceId, t.locationId], location),
    check("stock_move_qty_not_zero", sql`${t.qty} <> 0`),
  ],
).enableRLS();

// Reorder levels (issue 11 "Stock", ERPNext's Item Reorder): when a product's available stock plus what is on order
// at a location falls below min_qty, buy reorder_qty from the preferred supplier (a product names no supplier of its
// own). One level per product and location.
export const reorderLevel = pgTable(
  "reorder_level",
  {
    ...tenantColumns,
    productId: bigint("product_id", { mode: "number" }).notNull(),
    locationId: bigint("location_id", { mode: "number" }).notNull(),
    minQty: numeric("min_qty", { precision: 14, scale: 3 }).notNull(),
    reorderQty: numeric("reorder_qty", { precision: 14, scale: 3 }).notNull(),
    supplierId: bigint("supplier_id", { mode: "number" }),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("reorder_level", t, workspace),
    uniqueIndex("reorder_level_product_location_key").on(t.workspaceId, t.productId, t.locationId),
    index("reorder_level_location_idx").on(t.workspaceId, t.locationId),
    index("reorder_level_supplier_idx").on(t.workspaceId, t.supplierId),
    sameWorkspace("reorder_level_product_fk", [t.workspaceId, t.productId], product, "cascade"),
    sameWorkspace("reorder_level_location_fk", [t.workspaceId, t.locationId], location, "cascade"),
    sameWorkspace("reorder_level_supplier_fk", [t.workspaceId, t.supplierId], company),
    check("reorder_level_min_not_negative", sql`${t.minQty} >= 0`),
    check("reorder_level_qty_positive", sql`${t.reorderQty} > 0`),
  ],
).enableRLS();
