import { sql } from "drizzle-orm";
import { bigint, check, index, numeric, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { sameWorkspace, tenantColumns, tenantKeys } from "./columns.ts";
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
    sameWorkspace("stock_move_product_fk", [t.workspaceId, t.productId], product),
    sameWorkspace("stock_move_location_fk", [t.workspaceId, t.locationId], location),
    check("stock_move_qty_not_zero", sql`${t.qty} <> 0`),
  ],
).enableRLS();
