import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  date,
  foreignKey,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { tenantColumns, tenantKeys, tenantPolicy, timestamps } from "./columns.ts";

// ---- Platform tables (not per workspace) ----

export const tier = pgTable("tier", {
  id: integer("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  title: text("title").notNull(),
  monthlyPrice: numeric("monthly_price", { precision: 12, scale: 2 }).notNull(),
  yearlyPrice: numeric("yearly_price", { precision: 12, scale: 2 }).notNull(),
  minUsers: integer("min_users").notNull(),
  maxUsers: integer("max_users"),
  features: text("features").array().notNull(),
  // Issue 9 §3: what all of a workspace's files may add up to; set per tier from TIERS, changeable by operators.
  storageQuotaMb: integer("storage_quota_mb").notNull().default(1024),
  ...timestamps,
});

export const role = pgTable("role", {
  id: integer("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  title: text("title").notNull(),
});

export const channel = pgTable("channel", {
  id: integer("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  title: text("title").notNull(),
});

export const authUser = pgTable(
  "auth_user",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    aud: text("aud").notNull().default("authenticated"),
    email: text("email"),
    phone: text("phone"),
    encryptedPassword: text("encrypted_password"),
    emailConfirmedAt: timestamp("email_confirmed_at", { withTimezone: true }),
    phoneConfirmedAt: timestamp("phone_confirmed_at", { withTimezone: true }),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
    appMetadata: jsonb("app_metadata").notNull().default({}),
    userMetadata: jsonb("user_metadata").notNull().default({}),
    bannedUntil: timestamp("banned_until", { withTimezone: true }),
    isPlatformOperator: boolean("is_platform_operator").notNull().default(false),
    confirmationSentAt: timestamp("confirmation_sent_at", { withTimezone: true }),
    recoverySentAt: timestamp("recovery_sent_at", { withTimezone: true }),
    invitedAt: timestamp("invited_at", { withTimezone: true }),
    emailChange: text("email_change"),
    emailChangeSentAt: timestamp("email_change_sent_at", { withTimezone: true }),
    reauthenticationSentAt: timestamp("reauthentication_sent_at", { withTimezone: true }),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("auth_user_email_key").on(sql`lower(${t.email})`),
    uniqueIndex("auth_user_phone_key").on(t.phone),
  ],
);

export const workspace = pgTable("workspace", {
  id: uuid("id").primaryKey().defaultRandom(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  tierId: integer("tier_id")
    .notNull()
    .references(() => tier.id),
  userId: uuid("user_id").references(() => authUser.id),
  primaryColor: text("primary_color"),
  secondaryColor: text("secondary_color"),
  baseCurrency: text("base_currency").notNull().default("SGD"),
  // A small image as a data URL (≤ 200 KB), so the header and printed documents need no file request.
  logo: text("logo"),
  // What a Singapore tax invoice must show of the seller (IRAS): its address, UEN and GST registration number.
  businessAddress: text("business_address"),
  uen: text("uen"),
  gstRegistrationNumber: text("gst_registration_number"),
  suspendedAt: timestamp("suspended_at", { withTimezone: true }),
  // A sandbox (GET /demo, issue 21 §3): a copy of the demo data, removed by a sweep once this moment has passed.
  sandboxExpiresAt: timestamp("sandbox_expires_at", { withTimezone: true }),
  ...timestamps,
});

export const demoRequest = pgTable("demo_request", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
  name: text("name").notNull(),
  email: text("email").notNull(),
  phone: text("phone"),
  companyName: text("company_name").notNull(),
  companySize: text("company_size").notNull(),
  interest: text("interest").notNull(),
  preferredDate: date("preferred_date"),
  message: text("message"),
  handledAt: timestamp("handled_at", { withTimezone: true }),
  ...timestamps,
});

export const caseStudy = pgTable("case_study", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
  title: text("title").notNull(),
  companyName: text("company_name").notNull(),
  industry: text("industry").notNull(),
  summary: text("summary").notNull(),
  quote: text("quote"),
  quoteAuthor: text("quote_author"),
  metricValue: text("metric_value"),
  metricLabel: text("metric_label"),
  published: boolean("published").notNull().default(true),
  sortOrder: integer("sort_order").notNull().default(0),
  ...timestamps,
});

export const banner = pgTable("banner", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
  title: text("title").notNull(),
  body: text("body"),
  linkUrl: text("link_url"),
  linkLabel: text("link_label"),
  placement: text("placement").notNull().default("landing"),
  startsAt: timestamp("starts_at", { withTimezone: true }),
  endsAt: timestamp("ends_at", { withTimezone: true }),
  active: boolean("active").notNull().default(true),
  ...timestamps,
});

// ---- Tenant tables: workspace_id first in every key; RLS enabled, forced and fail-closed ----

// Issue 4: a workspace's roles with their permission sets. One row per system role is created with the
// workspace (is_system, base_role_id = that role); custom roles extend a system role's flags.
export const workspaceRole = pgTable(
  "workspace_role",
  {
    ...tenantColumns,
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    baseRoleId: integer("base_role_id")
      .notNull()
      .references(() => role.id),
    isSystem: boolean("is_system").notNull().default(false),
    permissions: text("permissions").array().notNull().default(sql`'{}'::text[]`),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("workspace_role", t, workspace),
    uniqueIndex("workspace_role_slug_key").on(t.workspaceId, t.slug),
  ],
).enableRLS();

export const user = pgTable(
  "user",
  {
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspace.id),
    id: uuid("id")
      .notNull()
      .references(() => authUser.id),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    roleId: integer("role_id")
      .notNull()
      .references(() => role.id),
    // role_id is the system role (flags, hosts: spec §6); workspace_role_id the permission set within the workspace.
    workspaceRoleId: bigint("workspace_role_id", { mode: "number" }),
    currencyFactorId: bigint("currency_factor_id", { mode: "number" }),
    active: boolean("active").notNull().default(true),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    uniqueIndex("user_workspace_slug_key").on(t.workspaceId, t.slug),
    foreignKey({
      columns: [t.workspaceId, t.workspaceRoleId],
      foreignColumns: [workspaceRole.workspaceId, workspaceRole.id],
    }),
    tenantPolicy("user"),
  ],
).enableRLS();
