import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { sameWorkspace, tenantColumns, tenantKeys, timestamps } from "./columns.ts";
import { company } from "./company-schema.ts";
import { category, product, project } from "./master-schema.ts";
import { authUser, workspace } from "./platform-schema.ts";

// Issue 11 "Supplier discount forms" and "Project registrations" (DESIGN §2.3.1 tables `supplier_discount_form`,
// `project_registration`), each answered on a public page without an account. Written only through commands (the
// partners module); read through /rest/v1.

export const SUPPLIER_DISCOUNT_STATUSES = ["draft", "sent", "confirmed", "rejected", "expired", "revoked"] as const;
export const DISCOUNT_KINDS = ["percent", "price"] as const;

// A request to a supplier to confirm a discount (ERPNext's pricing rule / Odoo's supplierinfo: products or a
// category, % off or a price, minimum quantity, valid from and to). Sending makes a link token the supplier gets
// by e-mail; only its SHA-256 is kept (token_hash), so the database never holds a usable link. A sent form whose
// link passed link_expires_at is Expired (the partners module settles it when it is read or answered).
export const supplierDiscountForm = pgTable(
  "supplier_discount_form",
  {
    ...tenantColumns,
    status: text("status", { enum: SUPPLIER_DISCOUNT_STATUSES }).notNull().default("draft"),
    companyId: bigint("company_id", { mode: "number" }).notNull(), // the supplier
    contactEmail: text("contact_email").notNull(),
    categoryId: bigint("category_id", { mode: "number" }), // every product of the category, or the listed ones
    discountKind: text("discount_kind", { enum: DISCOUNT_KINDS }).notNull().default("percent"),
    discountPercent: numeric("discount_percent", { precision: 5, scale: 2 }), // kind percent
    minQty: numeric("min_qty", { precision: 14, scale: 3 }).notNull().default(sql`1`),
    validFrom: date("valid_from").notNull(),
    validTo: date("valid_to").notNull(),
    message: text("message"), // to the supplier, shown on the public page
    tokenHash: text("token_hash"),
    linkExpiresAt: timestamp("link_expires_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    respondedAt: timestamp("responded_at", { withTimezone: true }),
    responderName: text("responder_name"),
    responderNote: text("responder_note"),
    respondedBy: uuid("responded_by").references(() => authUser.id), // a signed-in supplier user, else null
    createdBy: uuid("created_by").references(() => authUser.id),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("supplier_discount_form", t, workspace),
    uniqueIndex("supplier_discount_form_token_hash_key").on(t.tokenHash),
    index("supplier_discount_form_company_idx").on(t.workspaceId, t.companyId, t.status),
    sameWorkspace("supplier_discount_form_company_fk", [t.workspaceId, t.companyId], company),
    sameWorkspace("supplier_discount_form_category_fk", [t.workspaceId, t.categoryId], category),
    check("supplier_discount_form_dates_in_order", sql`${t.validTo} >= ${t.validFrom}`),
    check("supplier_discount_form_min_qty_positive", sql`${t.minQty} > 0`),
    check(
      "supplier_discount_form_percent_range",
      sql`${t.discountPercent} is null or (${t.discountPercent} > 0 and ${t.discountPercent} <= 100)`,
    ),
  ],
).enableRLS();

// The products a discount form names, each with the supplier's price when the form asks for prices.
export const supplierDiscountFormItem = pgTable(
  "supplier_discount_form_item",
  {
    ...tenantColumns,
    supplierDiscountFormId: bigint("supplier_discount_form_id", { mode: "number" }).notNull(),
    productId: bigint("product_id", { mode: "number" }).notNull(),
    price: numeric("price", { precision: 16, scale: 4 }),
    sortOrder: integer("sort_order").notNull().default(0),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("supplier_discount_form_item", t, workspace),
    uniqueIndex("supplier_discount_form_item_product_key").on(t.workspaceId, t.supplierDiscountFormId, t.productId),
    index("supplier_discount_form_item_product_idx").on(t.workspaceId, t.productId),
    sameWorkspace(
      "supplier_discount_form_item_form_fk",
      [t.workspaceId, t.supplierDiscountFormId],
      supplierDiscountForm,
      "cascade",
    ),
    sameWorkspace("supplier_discount_form_item_product_fk", [t.workspaceId, t.productId], product),
    check("supplier_discount_form_item_price_not_negative", sql`${t.price} is null or ${t.price} >= 0`),
  ],
).enableRLS();

export const PROJECT_REGISTRATION_STATUSES = ["submitted", "approved", "rejected"] as const;

// An upcoming project a reseller or customer registers on the workspace's public page (Odoo's partner deal
// registration): kept whole as sent; staff approve it into a project (creating or linking the end customer's
// company) or reject it with a reason, and the registrant is told by e-mail. duplicate_key is the end customer and
// project name without case or spaces, so "ACME Pte Ltd / Tower  B" and "acme pte ltd / tower b" are one.
export const projectRegistration = pgTable(
  "project_registration",
  {
    ...tenantColumns,
    status: text("status", { enum: PROJECT_REGISTRATION_STATUSES }).notNull().default("submitted"),
    endCustomer: text("end_customer").notNull(),
    projectName: text("project_name").notNull(),
    site: text("site"),
    expectedValue: numeric("expected_value", { precision: 14, scale: 2 }),
    productsOfInterest: text("products_of_interest"),
    expectedCloseDate: date("expected_close_date"),
    contactName: text("contact_name").notNull(),
    contactCompany: text("contact_company"), // the reseller, when one registers
    contactEmail: text("contact_email").notNull(),
    contactPhone: text("contact_phone"),
    note: text("note"),
    duplicateKey: text("duplicate_key")
      .notNull()
      .generatedAlwaysAs(
        sql`regexp_replace(lower(end_customer), '[[:space:]]+', '', 'g') || '|' || regexp_replace(lower(project_name), '[[:space:]]+', '', 'g')`,
      ),
    duplicateOfId: bigint("duplicate_of_id", { mode: "number" }), // the earliest registration with the same key
    companyId: bigint("company_id", { mode: "number" }), // set on approval
    projectId: bigint("project_id", { mode: "number" }), // made on approval
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decidedBy: uuid("decided_by").references(() => authUser.id),
    rejectReason: text("reject_reason"),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("project_registration", t, workspace),
    index("project_registration_duplicate_idx").on(t.workspaceId, t.duplicateKey),
    index("project_registration_status_idx").on(t.workspaceId, t.status, t.id),
    sameWorkspace("project_registration_duplicate_fk", [t.workspaceId, t.duplicateOfId], t),
    sameWorkspace("project_registration_company_fk", [t.workspaceId, t.companyId], company),
    sameWorkspace("project_registration_project_fk", [t.workspaceId, t.projectId], project),
    check("project_registration_value_not_negative", sql`${t.expectedValue} is null or ${t.expectedValue} >= 0`),
  ],
).enableRLS();
