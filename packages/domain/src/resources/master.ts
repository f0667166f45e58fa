import { brand, category, location, product, service, TAX_CODES } from "../db/master-schema.ts";
import { CATALOG } from "./catalog.ts";
import { defineResource } from "./define.ts";
import { auditFields, COST_PERMISSION, f, idField } from "./fields.ts";

// Issue 5 item 5: products, categorys, locations (warehouses), brands, services.

export const productResource = defineResource({
  ...CATALOG.product,
  table: product,
  naturalKey: "sku",
  display: "name",
  search: ["sku", "name", "description"],
  defaultOrder: "name.asc",
  fields: [
    idField(),
    f.code("sku", "SKU", { required: true, list: true, width: 130 }),
    f.name("name", "Name", { required: true, list: true, width: 260 }),
    // Issue 22: the code on the pack that scanners read (EAN-13, UPC, …); unique in the workspace when set.
    f.code("barcode", "Barcode", {
      width: 150,
      help: "The code printed on the pack (EAN-13, UPC …): scanners find it",
    }),
    f.textarea("description", "Description"),
    f.ref("category_id", "Category", "category", "name", { list: true }),
    f.ref("brand_id", "Brand", "brand", "name", { list: true }),
    f.text("unit", "Unit", { help: "pcs, box, kg, m …", width: 80, maxLength: 20 }),
    f.money("cost", "Cost", { width: 110, min: 0, permission: COST_PERMISSION }),
    f.money("price", "Price", { list: true, width: 110, min: 0 }),
    f.enum("tax_code", "Tax code", TAX_CODES, { help: "SR 9% GST, ZR zero-rated, ES exempt, OS out of scope" }),
    f.boolean("is_stock_tracked", "Stock tracked"),
    f.ref("usual_location_id", "Usual location", "location", "name", {
      help: "Deliveries and receipts whose order names no location take it for this product",
    }),
    f.tags("image_urls", "Images", { help: "Image addresses: type one and press Enter, then the next" }),
    f.boolean("active", "Active", { list: true, width: 90 }),
    ...auditFields,
  ],
  relations: {
    category: { resource: "category", kind: "one", column: "category_id", references: "id" },
    brand: { resource: "brand", kind: "one", column: "brand_id", references: "id" },
    usual_location: { resource: "location", kind: "one", column: "usual_location_id", references: "id" },
  },
  checks: { product_prices_not_negative: { message: "Cost and price cannot be less than 0" } },
});

// The permission matrix's rows for fields read by a permission of their own (FieldDef.permission).
export const FIELD_GRANTS = [
  { name: "product_cost", plural: "Product costs", actions: ["read"] },
  // Issue 21 §2: e-mailing a document to an address that is not its customer's own (its e-mail, its contacts').
  { name: "outside_email", plural: "E-mail to any address", actions: ["create"] },
  // Issue 21 §4: an employee's work pass and emergency contact (resources/hr.ts EMPLOYEE_PRIVATE), HR's to read.
  { name: "employee_private", plural: "Employees' private details", actions: ["read"] },
] as const;

export const categoryResource = defineResource({
  ...CATALOG.category,
  table: category,
  naturalKey: "name",
  display: "name",
  search: ["name", "description"],
  defaultOrder: "name.asc",
  fields: [
    idField(),
    f.name("name", "Name", { required: true, list: true, width: 240 }),
    f.ref("parent_id", "Parent category", "category", "name", { list: true }),
    f.textarea("description", "Description", { list: true }),
    f.boolean("active", "Active", { list: true, width: 90 }),
    ...auditFields,
  ],
  relations: {
    parent: { resource: "category", kind: "one", column: "parent_id", references: "id" },
    children: { resource: "category", kind: "many", column: "parent_id", references: "id" },
    products: { resource: "product", kind: "many", column: "category_id", references: "id" },
  },
  checks: { category_not_own_parent: { field: "parent_id", message: "A category cannot be its own parent" } },
});

export const brandResource = defineResource({
  ...CATALOG.brand,
  table: brand,
  naturalKey: "name",
  display: "name",
  search: ["name", "description"],
  defaultOrder: "name.asc",
  fields: [
    idField(),
    f.name("name", "Name", { required: true, list: true, width: 220 }),
    f.textarea("description", "Description", { list: true }),
    f.url("website", "Website", { list: true }),
    f.boolean("active", "Active", { list: true, width: 90 }),
    ...auditFields,
  ],
  relations: {
    products: { resource: "product", kind: "many", column: "brand_id", references: "id" },
  },
});

export const locationResource = defineResource({
  ...CATALOG.location,
  table: location,
  naturalKey: "code",
  display: "name",
  search: ["code", "name", "address"],
  defaultOrder: "code.asc",
  fields: [
    idField(),
    f.code("code", "Code", { required: true, list: true, width: 110 }),
    f.name("name", "Name", { required: true, list: true, width: 220 }),
    f.textarea("address", "Address", { list: true }),
    f.boolean("active", "Active", { list: true, width: 90 }),
    ...auditFields,
  ],
  relations: {},
});

export const serviceResource = defineResource({
  ...CATALOG.service,
  table: service,
  naturalKey: "code",
  display: "name",
  search: ["code", "name", "description"],
  defaultOrder: "name.asc",
  fields: [
    idField(),
    f.code("code", "Code", { required: true, list: true, width: 120 }),
    f.name("name", "Name", { required: true, list: true, width: 240 }),
    f.textarea("description", "Description"),
    f.text("unit", "Unit", { list: true, help: "hour, visit, job …", width: 90, maxLength: 20 }),
    f.money("price", "Price", { list: true, width: 110, min: 0 }),
    f.enum("tax_code", "Tax code", TAX_CODES),
    f.boolean("active", "Active", { list: true, width: 90 }),
    ...auditFields,
  ],
  relations: {},
  checks: { service_price_not_negative: { field: "price", message: "Price cannot be less than 0" } },
});
