import type { PgTable } from "drizzle-orm/pg-core";
import { TAX_CODES } from "../db/master-schema.ts";
import type { CatalogEntry } from "./catalog.ts";
import { defineResource } from "./define.ts";
import { auditFields, COST_PERMISSION, f, idField } from "./fields.ts";
import type { FieldDef, ResourceDef } from "./types.ts";

// A document type's header and lines as /rest/v1 resources (DESIGN §2.3.1): read-only there (writes go through
// document_save / document_transition / document_convert), lines embeddable as select=*,lines:<type>_line(*).
// Fields a client never gives document_save are read-only; the others validate its header and lines, so the
// command's schemas are the tables' (drizzle-zod through defineResource), never re-declared.

const ro = { readOnly: true };

export const documentHeaderFields = (statuses: readonly string[], extra: FieldDef[] = []): FieldDef[] => [
  idField(),
  f.code("number", "Number", { ...ro, list: true, width: 150 }),
  f.status("status", "Status", statuses, { ...ro, list: true, width: 140 }),
  f.date("doc_date", "Date", { list: true, width: 120 }),
  f.ref("company_id", "Customer", "company", "name", { required: true, list: true, width: 160 }),
  f.ref("contact_id", "Contact", "contact", "name"),
  f.ref("project_id", "Project", "project", "code"),
  ...extra,
  f.text("currency", "Currency", { width: 90 }),
  f.number("rate", "Exchange rate", { min: 0 }),
  f.textarea("notes", "Notes"),
  f.textarea("terms", "Terms"),
  f.money("subtotal", "Subtotal", ro),
  f.percent("discount_percent", "Discount %", { min: 0, max: 100 }),
  f.money("discount_amount", "Discount", { min: 0 }),
  f.money("net_total", "Net total", ro),
  f.money("tax_total", "GST", ro),
  f.money("total", "Total", { ...ro, list: true, width: 120 }),
  f.money("base_total", "Total (base currency)", ro),
  f.text("source_type", "Made from", ro),
  f.integer("source_id", "Made from (id)", ro),
  f.integer("amended_from", "Amends (id)", ro),
  f.ref("created_by", "Created by", "user", "name", ro),
  ...auditFields,
];

export const documentLineFields = (parent: string, extra: FieldDef[] = []): FieldDef[] => [
  idField(),
  f.ref(`${parent}_id`, "Document", parent, "number", ro),
  f.integer("line_no", "Line", ro),
  f.ref("product_id", "Product", "product", "name"),
  f.ref("service_id", "Service", "service", "name"),
  f.code("sku", "SKU"),
  f.text("description", "Description"),
  f.text("unit", "Unit", { maxLength: 20 }),
  f.number("qty", "Quantity", { required: true }),
  f.number("unit_price", "Unit price", { min: 0 }),
  // What the line cost us follows the cost permission, as the product's cost does (issue 21 §2: it leaked here).
  f.number("unit_cost", "Unit cost", { ...ro, permission: COST_PERMISSION }),
  f.percent("discount_percent", "Discount %", { min: 0, max: 100 }),
  f.enum("tax_code", "Tax code", TAX_CODES),
  f.money("line_total", "Line total", ro),
  f.money("net_amount", "Net amount", ro),
  f.integer("source_line_id", "Source line", ro),
  ...extra,
];

// The shared header relations, then one for each of the type's own reference fields (a delivery order's
// location_id → location), so a list shows their labels, not "#1000".
const headerRelations = (type: string, fields: readonly FieldDef[]) => {
  const shared: Record<string, { resource: string; kind: "one" | "many"; column: string; references: string }> = {
    lines: { resource: `${type}_line`, kind: "many" as const, column: `${type}_id`, references: "id" },
    company: { resource: "company", kind: "one" as const, column: "company_id", references: "id" },
    contact: { resource: "contact", kind: "one" as const, column: "contact_id", references: "id" },
    project: { resource: "project", kind: "one" as const, column: "project_id", references: "id" },
    created_by_user: { resource: "user", kind: "one" as const, column: "created_by", references: "id" },
  };
  const covered = new Set(Object.values(shared).map((r) => r.column));
  for (const f of fields) {
    if (f.kind !== "reference" || !f.reference || covered.has(f.name) || !f.name.endsWith("_id")) continue;
    const key = f.name.slice(0, -3);
    if (!(key in shared))
      shared[key] = { resource: f.reference.resource, kind: "one", column: f.name, references: "id" };
  }
  return shared;
};

// `owner`: the header's user-id column when members may read only their own documents (the type's machine `owner`),
// as long as they hold some permission of the type (a salesperson creating quotations; not a driver on quotations):
// the lines follow their document's owner.
export function documentResources(
  type: string,
  header: { entry: CatalogEntry; table: PgTable; fields: FieldDef[] },
  lines: { entry: CatalogEntry; table: PgTable; fields: FieldDef[] },
  owner?: string,
): [ResourceDef, ResourceDef] {
  const headerDef = defineResource({
    ...header.entry,
    ...(owner ? { ownerColumn: owner, ownerHolds: true } : {}),
    table: header.table,
    display: "number",
    search: ["number", "notes"],
    defaultOrder: "doc_date.desc,id.desc",
    fields: header.fields,
    relations: headerRelations(type, header.fields),
  });
  const lineDef = defineResource({
    ...lines.entry,
    ...(owner ? { ownerColumn: owner, ownerHolds: true, ownerParent: { table: type, column: `${type}_id` } } : {}),
    table: lines.table,
    display: "description",
    search: ["description", "sku"],
    defaultOrder: `${type}_id.asc,line_no.asc`,
    fields: lines.fields,
    keptCount: false,
    relations: {
      [type]: { resource: type, kind: "one", column: `${type}_id`, references: "id" },
      product: { resource: "product", kind: "one", column: "product_id", references: "id" },
      service: { resource: "service", kind: "one", column: "service_id", references: "id" },
    },
  });
  return [headerDef, lineDef];
}
