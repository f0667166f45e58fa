import { sql } from "drizzle-orm";
import { bigint, check, index, numeric, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { sameWorkspace, tenantColumns, tenantKeys, timestamps } from "./columns.ts";
import {
  documentHeaderColumns,
  documentHeaderKeys,
  documentLineColumns,
  documentLineKeys,
} from "./document-columns.ts";
import { location, product } from "./master-schema.ts";
import { workspace } from "./platform-schema.ts";
import { deliveryOrder } from "./selling-schema.ts";

// Issue 22 "Warehouse" (DESIGN §2.3.2): where each product sits in a location (its bin), pick lists and stock counts
// on the documents engine (written only by commands; /rest/v1 reads them, lines embedded as
// select=*,lines:pick_list_line(*)).

const qty = (name: string) => numeric(name, { precision: 14, scale: 3 });

// A product's shelf in a location ("A-03-2"): pick lists walk lines in location then bin order.
export const productBin = pgTable(
  "product_bin",
  {
    ...tenantColumns,
    productId: bigint("product_id", { mode: "number" }).notNull(),
    locationId: bigint("location_id", { mode: "number" }).notNull(),
    bin: text("bin").notNull(),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("product_bin", t, workspace),
    uniqueIndex("product_bin_product_location_key").on(t.workspaceId, t.productId, t.locationId),
    index("product_bin_location_idx").on(t.workspaceId, t.locationId, t.bin),
    sameWorkspace("product_bin_product_fk", [t.workspaceId, t.productId], product, "cascade"),
    sameWorkspace("product_bin_location_fk", [t.workspaceId, t.locationId], location, "cascade"),
    check("product_bin_not_blank", sql`length(trim(${t.bin})) > 0`),
  ],
).enableRLS();

// What to pick for a sales order or a delivery instruction (source_type/source_id); finishing it makes the delivery
// order draft (delivery_order_id) with the picked quantities.
export const pickList = pgTable(
  "pick_list",
  {
    ...documentHeaderColumns,
    locationId: bigint("location_id", { mode: "number" }),
    deliveryOrderId: bigint("delivery_order_id", { mode: "number" }),
  },
  (t) => [
    ...documentHeaderKeys("pick_list", t),
    sameWorkspace("pick_list_location_fk", [t.workspaceId, t.locationId], location),
    sameWorkspace("pick_list_delivery_order_fk", [t.workspaceId, t.deliveryOrderId], deliveryOrder),
  ],
).enableRLS();

export const pickListLine = pgTable(
  "pick_list_line",
  {
    ...documentLineColumns,
    locationId: bigint("location_id", { mode: "number" }),
    bin: text("bin"),
    qtyPicked: qty("qty_picked").notNull().default(sql`0`),
    pickListId: bigint("pick_list_id", { mode: "number" }).notNull(),
  },
  (t) => [
    ...documentLineKeys("pick_list_line", t, { column: t.pickListId, table: pickList }),
    sameWorkspace("pick_list_line_location_fk", [t.workspaceId, t.locationId], location),
    check("pick_list_line_picked_not_negative", sql`${t.qtyPicked} >= 0`),
  ],
).enableRLS();

// A blind count of one location: the counter's counted_qty, the system quantity read when it is submitted, and the
// difference (counted − system) a manager applies. A count has no customer: company_id is optional here.
export const stockCount = pgTable(
  "stock_count",
  {
    ...documentHeaderColumns,
    companyId: bigint("company_id", { mode: "number" }),
    locationId: bigint("location_id", { mode: "number" }).notNull(),
  },
  (t) => [
    ...documentHeaderKeys("stock_count", t),
    sameWorkspace("stock_count_location_fk", [t.workspaceId, t.locationId], location),
  ],
).enableRLS();

export const stockCountLine = pgTable(
  "stock_count_line",
  {
    ...documentLineColumns,
    locationId: bigint("location_id", { mode: "number" }),
    systemQty: qty("system_qty"),
    countedQty: qty("counted_qty"),
    difference: qty("difference"),
    stockCountId: bigint("stock_count_id", { mode: "number" }).notNull(),
  },
  (t) => [
    ...documentLineKeys("stock_count_line", t, { column: t.stockCountId, table: stockCount }),
    sameWorkspace("stock_count_line_location_fk", [t.workspaceId, t.locationId], location),
    check("stock_count_line_counted_not_negative", sql`${t.countedQty} >= 0`),
  ],
).enableRLS();
