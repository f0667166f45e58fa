import { pickList, pickListLine, productBin, stockCount, stockCountLine } from "../db/warehouse-schema.ts";
import { PICK_LIST } from "../documents/types/pick-list.ts";
import { STOCK_COUNT } from "../documents/types/stock-count.ts";
import { CATALOG } from "./catalog.ts";
import { defineResource } from "./define.ts";
import { documentHeaderFields, documentLineFields, documentResources } from "./documents.ts";
import { auditFields, f, idField } from "./fields.ts";
import type { ResourceDef } from "./types.ts";

// Issue 22 "Warehouse": pick lists and stock counts, read through /rest/v1 (written by the warehouse commands and the
// document commands), pages at /dashboard/pick-lists and /dashboard/stock-counts; each product's bin per location.

const ro = { readOnly: true };

// Neither a pick list's nor a count's customer is asked for: a pick list copies its order's (kept, off the form), a
// count has none.
const noCustomer = (fields: ReturnType<typeof documentHeaderFields>, copied: boolean) =>
  fields.map((x) =>
    x.name !== "company_id"
      ? x
      : copied
        ? { ...x, form: false }
        : { ...x, required: false, readOnly: true, list: false, form: false },
  );

export const [pickListResource, pickListLineResource] = documentResources(
  "pick_list",
  {
    entry: CATALOG.pick_list,
    table: pickList,
    fields: noCustomer(
      documentHeaderFields(PICK_LIST.statusNames, [
        f.ref("location_id", "Location", "location", "name", { list: true, width: 150 }),
        f.ref("delivery_order_id", "Delivery order", "delivery_order", "number", { ...ro, list: true, width: 150 }),
      ]),
      true,
    ),
  },
  {
    entry: CATALOG.pick_list_line,
    table: pickListLine,
    fields: documentLineFields("pick_list", [
      f.ref("location_id", "Location", "location", "name", { list: true }),
      f.text("bin", "Bin", { list: true, maxLength: 40 }),
      f.number("qty_picked", "Picked", { ...ro, list: true }),
    ]),
  },
);

export const [stockCountResource, stockCountLineResource] = documentResources(
  "stock_count",
  {
    entry: CATALOG.stock_count,
    table: stockCount,
    fields: noCustomer(
      documentHeaderFields(STOCK_COUNT.statusNames, [
        f.ref("location_id", "Location", "location", "name", { required: true, list: true, width: 160 }),
      ]),
      false,
    ),
  },
  {
    entry: CATALOG.stock_count_line,
    table: stockCountLine,
    fields: documentLineFields("stock_count", [
      f.ref("location_id", "Location", "location", "name"),
      f.number("system_qty", "System", { ...ro, list: true }),
      f.number("counted_qty", "Counted", { list: true, min: 0 }),
      f.number("difference", "Difference", { ...ro, list: true }),
    ]),
  },
);

export const productBinResource = defineResource({
  ...CATALOG.product_bin,
  table: productBin,
  display: "bin",
  search: ["bin"],
  defaultOrder: "bin.asc",
  fields: [
    idField(),
    f.ref("product_id", "Product", "product", "name", { required: true, list: true, width: 240 }),
    f.ref("location_id", "Location", "location", "name", { required: true, list: true, width: 180 }),
    f.text("bin", "Bin", { required: true, list: true, maxLength: 40, help: "The shelf the product is kept on" }),
    ...auditFields,
  ],
  relations: {
    product: { resource: "product", kind: "one", column: "product_id", references: "id" },
    location: { resource: "location", kind: "one", column: "location_id", references: "id" },
  },
  checks: {
    product_bin_not_blank: { field: "bin", message: "Give the bin (shelf) the product is kept on" },
  },
});

export const WAREHOUSE_RESOURCES: readonly ResourceDef[] = [
  pickListResource,
  pickListLineResource,
  stockCountResource,
  stockCountLineResource,
  productBinResource,
];
