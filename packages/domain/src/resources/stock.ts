import { reorderLevel } from "../db/stock-schema.ts";
import { CATALOG } from "./catalog.ts";
import { defineResource } from "./define.ts";
import { auditFields, f, idField } from "./fields.ts";

// Issue 11 "Stock": reorder levels per product and location, kept on their own page (/dashboard/reorder-levels)
// and read by the stock levels page's "to reorder" filter, which drafts purchase orders from them.
export const reorderLevelResource = defineResource({
  ...CATALOG.reorder_level,
  table: reorderLevel,
  display: "id",
  search: [],
  defaultOrder: "id.asc",
  fields: [
    idField(),
    f.ref("product_id", "Product", "product", "name", { required: true, list: true, width: 240 }),
    f.ref("location_id", "Location", "location", "name", { required: true, list: true, width: 180 }),
    f.number("min_qty", "Minimum quantity", {
      required: true,
      list: true,
      min: 0,
      help: "Reorder when available stock plus what is on order here falls below this",
    }),
    f.number("reorder_qty", "Reorder quantity", { required: true, list: true, help: "How much to buy each time" }),
    f.ref("supplier_id", "Preferred supplier", "company", "name", { list: true, width: 220 }),
    ...auditFields,
  ],
  relations: {
    product: { resource: "product", kind: "one", column: "product_id", references: "id" },
    location: { resource: "location", kind: "one", column: "location_id", references: "id" },
    supplier: { resource: "company", kind: "one", column: "supplier_id", references: "id" },
  },
  checks: {
    reorder_level_min_not_negative: { field: "min_qty", message: "The minimum quantity cannot be less than 0" },
    reorder_level_qty_positive: { field: "reorder_qty", message: "The reorder quantity must be more than 0" },
  },
});

export const STOCK_RESOURCES = [reorderLevelResource] as const;
