import { sql } from "drizzle-orm";
import { bigint, date, index, integer, numeric, type PgColumn, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { sameWorkspace, tenantColumns, tenantKeys, timestamps } from "./columns.ts";
import { company } from "./company-schema.ts";
import { contact, product, project, service, TAX_CODES } from "./master-schema.ts";
import { authUser, workspace } from "./platform-schema.ts";

// The columns every document header and line shares (DESIGN §2.3.1 "Tables"), spread into each type's tables
// (STYLE: spread, not restated). Money numeric(14,2); quantities 3 decimals; prices and costs 4.

const money = (name: string) => numeric(name, { precision: 14, scale: 2 }).notNull().default(sql`0`);
const qty = (name: string) => numeric(name, { precision: 14, scale: 3 });
const price = (name: string) => numeric(name, { precision: 16, scale: 4 });

export const documentHeaderColumns = {
  ...tenantColumns,
  number: text("number"), // PFX-YYYY-#####, given when it leaves draft
  status: text("status").notNull().default("draft"),
  docDate: date("doc_date").notNull().default(sql`current_date`),
  companyId: bigint("company_id", { mode: "number" }).notNull(), // the customer or supplier
  contactId: bigint("contact_id", { mode: "number" }),
  projectId: bigint("project_id", { mode: "number" }),
  currency: text("currency").notNull().default("SGD"),
  rate: numeric("rate", { precision: 18, scale: 6 }).notNull().default(sql`1`), // base units per unit of currency
  notes: text("notes"),
  terms: text("terms"),
  // Computed by the server with computeTotals (documents/totals.ts); never taken from a client.
  subtotal: money("subtotal"),
  discountPercent: numeric("discount_percent", { precision: 5, scale: 2 }), // null: the discount is an amount
  discountAmount: money("discount_amount"),
  netTotal: money("net_total"),
  taxTotal: money("tax_total"),
  total: money("total"),
  baseTotal: money("base_total"),
  sourceType: text("source_type"), // the document it was made from (document_convert)
  sourceId: bigint("source_id", { mode: "number" }),
  amendedFrom: bigint("amended_from", { mode: "number" }), // the cancelled document this draft amends (ERPNext)
  createdBy: uuid("created_by").references(() => authUser.id),
  ...timestamps,
};

type HeaderColumns = { [K in keyof typeof documentHeaderColumns]: PgColumn };

export const documentHeaderKeys = (table: string, t: HeaderColumns) => [
  ...tenantKeys(table, t, workspace),
  uniqueIndex(`${table}_number_key`).on(t.workspaceId, t.number),
  index(`${table}_date_idx`).on(t.workspaceId, t.docDate, t.id),
  index(`${table}_company_idx`).on(t.workspaceId, t.companyId),
  index(`${table}_status_idx`).on(t.workspaceId, t.status),
  // The documents made from one (a cancel refused while one draws from it, the draws recomputed, the flow view).
  index(`${table}_source_idx`).on(t.workspaceId, t.sourceType, t.sourceId),
  sameWorkspace(`${table}_company_fk`, [t.workspaceId, t.companyId], company),
  sameWorkspace(`${table}_contact_fk`, [t.workspaceId, t.contactId], contact),
  sameWorkspace(`${table}_project_fk`, [t.workspaceId, t.projectId], project),
];

// Lines snapshot the product's name, SKU, unit, price and cost when saved (Medusa's order item): later edits of the
// product do not rewrite a sent quotation.
export const documentLineColumns = {
  ...tenantColumns,
  lineNo: integer("line_no").notNull(),
  productId: bigint("product_id", { mode: "number" }),
  serviceId: bigint("service_id", { mode: "number" }),
  sku: text("sku"),
  description: text("description").notNull(),
  unit: text("unit"),
  qty: qty("qty").notNull(),
  unitPrice: price("unit_price").notNull(),
  unitCost: price("unit_cost"),
  discountPercent: numeric("discount_percent", { precision: 5, scale: 2 }).notNull().default(sql`0`),
  taxCode: text("tax_code", { enum: TAX_CODES }).notNull().default("SR"),
  lineTotal: money("line_total"),
  netAmount: money("net_amount"), // the line total less its share of the document discount
  sourceLineId: bigint("source_line_id", { mode: "number" }), // the line of the document it was made from
};

// On lines other documents draw from (DESIGN §2.3.1): recomputed from the linked lines, never incremented.
export const drawnQuantities = {
  qtyDelivered: qty("qty_delivered").notNull().default(sql`0`),
  qtyBilled: qty("qty_billed").notNull().default(sql`0`),
  qtyReturned: qty("qty_returned").notNull().default(sql`0`),
};

type LineColumns = { [K in keyof typeof documentLineColumns]: PgColumn };

export const documentLineKeys = (
  table: string,
  t: LineColumns,
  parent: { column: PgColumn; table: { workspaceId: PgColumn; id: PgColumn } },
) => [
  ...tenantKeys(table, t, workspace),
  index(`${table}_document_idx`).on(t.workspaceId, parent.column, t.lineNo),
  index(`${table}_source_idx`).on(t.workspaceId, t.sourceLineId),
  sameWorkspace(`${table}_document_fk`, [t.workspaceId, parent.column], parent.table, "cascade"),
  sameWorkspace(`${table}_product_fk`, [t.workspaceId, t.productId], product),
  sameWorkspace(`${table}_service_fk`, [t.workspaceId, t.serviceId], service),
];
