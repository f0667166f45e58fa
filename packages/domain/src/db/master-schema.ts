import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { sameWorkspace, searchIndexes, tenantColumns, tenantKeys, tenantPolicy, timestamps } from "./columns.ts";
import { company } from "./company-schema.ts";
import { authUser, workspace } from "./platform-schema.ts";

// ---- Master data (issue 5 item 5). Tenant tables: workspace_id first in every key, RLS forced, fail-closed ----

export const TAX_CODES = ["SR", "ZR", "ES", "OS"] as const; // GST: standard-rated 9%, zero-rated, exempt, out of scope
export const PROJECT_STATUSES = ["planning", "active", "on_hold", "completed", "cancelled"] as const;
export const MEMO_AUDIENCES = ["all", "roles"] as const;

const money = (name: string) => numeric(name, { precision: 14, scale: 2 });

export const category = pgTable(
  "category",
  {
    ...tenantColumns,
    name: text("name").notNull(),
    parentId: bigint("parent_id", { mode: "number" }),
    description: text("description"),
    active: boolean("active").notNull().default(true),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("category", t, workspace),
    uniqueIndex("category_name_key").on(t.workspaceId, t.name),
    index("category_parent_idx").on(t.workspaceId, t.parentId),
    sameWorkspace("category_parent_fk", [t.workspaceId, t.parentId], t),
    check("category_not_own_parent", sql`${t.parentId} is distinct from ${t.id}`),
  ],
).enableRLS();

export const brand = pgTable(
  "brand",
  {
    ...tenantColumns,
    name: text("name").notNull(),
    description: text("description"),
    website: text("website"),
    active: boolean("active").notNull().default(true),
    ...timestamps,
  },
  (t) => [...tenantKeys("brand", t, workspace), uniqueIndex("brand_name_key").on(t.workspaceId, t.name)],
).enableRLS();

export const location = pgTable(
  "location",
  {
    ...tenantColumns,
    code: text("code").notNull(),
    name: text("name").notNull(),
    address: text("address"),
    active: boolean("active").notNull().default(true),
    ...timestamps,
  },
  (t) => [...tenantKeys("location", t, workspace), uniqueIndex("location_code_key").on(t.workspaceId, t.code)],
).enableRLS();

export const product = pgTable(
  "product",
  {
    ...tenantColumns,
    sku: text("sku").notNull(),
    name: text("name").notNull(),
    // The code on the pack (EAN-13, UPC…) that scanners read (issue 22); unique in the workspace when set.
    barcode: text("barcode"),
    description: text("description"),
    categoryId: bigint("category_id", { mode: "number" }),
    brandId: bigint("brand_id", { mode: "number" }),
    unit: text("unit").notNull().default("pcs"),
    cost: money("cost").notNull().default("0"),
    price: money("price").notNull().default("0"),
    taxCode: text("tax_code", { enum: TAX_CODES }).notNull().default("SR"),
    isStockTracked: boolean("is_stock_tracked").notNull().default(true),
    // Where the product is usually kept (issue 21 §1): a delivery or receipt whose order names no location takes it
    // for the product's lines, before the workspace's default warehouse.
    usualLocationId: bigint("usual_location_id", { mode: "number" }),
    imageUrls: text("image_urls").array().notNull().default(sql`'{}'::text[]`),
    active: boolean("active").notNull().default(true),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("product", t, workspace),
    uniqueIndex("product_sku_key").on(t.workspaceId, t.sku),
    uniqueIndex("product_barcode_key").on(t.workspaceId, t.barcode),
    // The list page's default order and its pages (bench/rest-list.ts): (workspace_id, name, id).
    index("product_name_idx").on(t.workspaceId, t.name, t.id),
    index("product_category_idx").on(t.workspaceId, t.categoryId),
    index("product_brand_idx").on(t.workspaceId, t.brandId),
    ...searchIndexes("product", [t.sku, t.name, t.description]),
    sameWorkspace("product_category_fk", [t.workspaceId, t.categoryId], category),
    sameWorkspace("product_brand_fk", [t.workspaceId, t.brandId], brand),
    sameWorkspace("product_usual_location_fk", [t.workspaceId, t.usualLocationId], location),
    check("product_prices_not_negative", sql`${t.cost} >= 0 and ${t.price} >= 0`),
  ],
).enableRLS();

export const service = pgTable(
  "service",
  {
    ...tenantColumns,
    code: text("code").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    unit: text("unit").notNull().default("hour"),
    price: money("price").notNull().default("0"),
    taxCode: text("tax_code", { enum: TAX_CODES }).notNull().default("SR"),
    active: boolean("active").notNull().default(true),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("service", t, workspace),
    uniqueIndex("service_code_key").on(t.workspaceId, t.code),
    check("service_price_not_negative", sql`${t.price} >= 0`),
  ],
).enableRLS();

export const contact = pgTable(
  "contact",
  {
    ...tenantColumns,
    companyId: bigint("company_id", { mode: "number" }).notNull(),
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone"),
    position: text("position"),
    isPrimary: boolean("is_primary").notNull().default(false),
    notes: text("notes"),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("contact", t, workspace),
    index("contact_company_idx").on(t.workspaceId, t.companyId),
    ...searchIndexes("contact", [t.name, t.email, t.phone]),
    sameWorkspace("contact_company_fk", [t.workspaceId, t.companyId], company),
  ],
).enableRLS();

export const memo = pgTable(
  "memo",
  {
    ...tenantColumns,
    title: text("title").notNull(),
    body: text("body").notNull(),
    audience: text("audience", { enum: MEMO_AUDIENCES }).notNull().default("all"),
    // workspace_role ids the memo is for when audience is "roles".
    audienceRoleIds: bigint("audience_role_ids", { mode: "number" }).array().notNull().default(sql`'{}'::bigint[]`),
    pinned: boolean("pinned").notNull().default(false),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    authorId: uuid("author_id").references(() => authUser.id),
    ...timestamps,
  },
  (t) => [...tenantKeys("memo", t, workspace), index("memo_published_idx").on(t.workspaceId, t.publishedAt)],
).enableRLS();

// Read receipts: one row per memo and reader.
export const memoRead = pgTable(
  "memo_read",
  {
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspace.id),
    memoId: bigint("memo_id", { mode: "number" }).notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => authUser.id),
    readAt: timestamp("read_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.memoId, t.userId] }),
    sameWorkspace("memo_read_memo_fk", [t.workspaceId, t.memoId], memo, "cascade"),
    tenantPolicy("memo_read"),
  ],
).enableRLS();

export const projectGroup = pgTable(
  "project_group",
  {
    ...tenantColumns,
    name: text("name").notNull(),
    description: text("description"),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("project_group", t, workspace),
    uniqueIndex("project_group_name_key").on(t.workspaceId, t.name),
  ],
).enableRLS();

export const project = pgTable(
  "project",
  {
    ...tenantColumns,
    code: text("code").notNull(),
    name: text("name").notNull(),
    companyId: bigint("company_id", { mode: "number" }),
    projectGroupId: bigint("project_group_id", { mode: "number" }),
    status: text("status", { enum: PROJECT_STATUSES }).notNull().default("planning"),
    startDate: date("start_date"),
    endDate: date("end_date"),
    budget: money("budget"),
    description: text("description"),
    // Issue 12 (progressive claims): the retention is released by share at practical completion and the rest at
    // the end of the defects liability period.
    practicalCompletionDate: date("practical_completion_date"),
    defectsLiabilityEndDate: date("defects_liability_end_date"),
    retentionReleasePercent: numeric("retention_release_percent", { precision: 5, scale: 2 }).notNull().default("50"),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("project", t, workspace),
    uniqueIndex("project_code_key").on(t.workspaceId, t.code),
    index("project_company_idx").on(t.workspaceId, t.companyId),
    sameWorkspace("project_company_fk", [t.workspaceId, t.companyId], company),
    sameWorkspace("project_group_fk", [t.workspaceId, t.projectGroupId], projectGroup),
    check(
      "project_dates_in_order",
      sql`${t.endDate} is null or ${t.startDate} is null or ${t.endDate} >= ${t.startDate}`,
    ),
  ],
).enableRLS();

// Brands a project is allowed to use, with the discount agreed for it.
export const projectBrand = pgTable(
  "project_brand",
  {
    ...tenantColumns,
    projectId: bigint("project_id", { mode: "number" }).notNull(),
    brandId: bigint("brand_id", { mode: "number" }).notNull(),
    discountPercent: numeric("discount_percent", { precision: 5, scale: 2 }).notNull().default("0"),
    notes: text("notes"),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("project_brand", t, workspace),
    uniqueIndex("project_brand_key").on(t.workspaceId, t.projectId, t.brandId),
    sameWorkspace("project_brand_project_fk", [t.workspaceId, t.projectId], project, "cascade"),
    sameWorkspace("project_brand_brand_fk", [t.workspaceId, t.brandId], brand),
    check("project_brand_discount_range", sql`${t.discountPercent} between 0 and 100`),
  ],
).enableRLS();

// Currencies a project may be billed in.
export const projectCurrency = pgTable(
  "project_currency",
  {
    ...tenantColumns,
    projectId: bigint("project_id", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    isDefault: boolean("is_default").notNull().default(false),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("project_currency", t, workspace),
    uniqueIndex("project_currency_key").on(t.workspaceId, t.projectId, t.currency),
    sameWorkspace("project_currency_project_fk", [t.workspaceId, t.projectId], project, "cascade"),
  ],
).enableRLS();

// A project's locked exchange rate per currency (1 unit of `currency` = `factor` of the workspace's base currency),
// used by the project's documents.
export const currencyFactor = pgTable(
  "currency_factor",
  {
    ...tenantColumns,
    projectId: bigint("project_id", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    factor: numeric("factor", { precision: 18, scale: 6 }).notNull(),
    effectiveDate: date("effective_date").notNull().default(sql`current_date`),
    locked: boolean("locked").notNull().default(true),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("currency_factor", t, workspace),
    uniqueIndex("currency_factor_key").on(t.workspaceId, t.projectId, t.currency),
    sameWorkspace("currency_factor_project_fk", [t.workspaceId, t.projectId], project, "cascade"),
    check("currency_factor_positive", sql`${t.factor} > 0`),
  ],
).enableRLS();
