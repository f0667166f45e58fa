import { WORKSPACE_COLORS } from "../brand.ts";
import { banner, caseStudy, demoRequest, role, tier, user, workspace, workspaceRole } from "../db/platform-schema.ts";
import { coupon, creditEntry, feedback, subscription } from "../db/tenancy-schema.ts";
import { FEATURES } from "../tiers.ts";
import { CATALOG } from "./catalog.ts";
import { defineResource } from "./define.ts";
import { auditFields, f, idField } from "./fields.ts";

// Issue 4 items 8–9: the workspace and platform administration tables, as resources of the same engine.

const COLORS = ["-", ...Object.keys(WORKSPACE_COLORS)];

export const userResource = defineResource({
  ...CATALOG.user,
  table: user,
  display: "name",
  search: ["name", "email", "slug"],
  defaultOrder: "name.asc",
  fields: [
    idField("text"),
    f.name("name", "Name", { required: true, list: true, width: 200 }),
    f.email("email", "E-mail", { readOnly: true, list: true, width: 240 }),
    f.text("slug", "Slug", { readOnly: true, form: false }),
    f.ref("workspace_role_id", "Role", "workspace_role", "title", {
      list: true,
      help: "The role's permissions apply from the user's next request",
    }),
    f.ref("role_id", "System role", "role", "title", { readOnly: true }),
    f.ref("currency_factor_id", "Currency factor", "currency_factor", "currency", { readOnly: true, form: false }),
    // Changed only through /api/workspace/users/:id/(de|re)activate, which also ends the user's sessions.
    f.boolean("active", "Active", { list: true, width: 90, readOnly: true }),
    ...auditFields,
  ],
  relations: {
    role: { resource: "role", kind: "one", column: "role_id", references: "id" },
    workspace_role: { resource: "workspace_role", kind: "one", column: "workspace_role_id", references: "id" },
    workspace: { resource: "workspace", kind: "one", column: "workspace_id", references: "id" },
    currency_factor: { resource: "currency_factor", kind: "one", column: "currency_factor_id", references: "id" },
  },
});

export const workspaceRoleResource = defineResource({
  ...CATALOG.workspace_role,
  table: workspaceRole,
  naturalKey: "slug",
  display: "title",
  search: ["title", "slug"],
  defaultOrder: "title.asc",
  fields: [
    idField(),
    f.name("title", "Title", { required: true, list: true, width: 200 }),
    f.code("slug", "Slug", { required: true, list: true, width: 160 }),
    f.ref("base_role_id", "Based on", "role", "title", {
      required: true,
      list: true,
      help: "Decides the apps and hosts the role may use",
    }),
    f.boolean("is_system", "System role", { readOnly: true, list: true, width: 110 }),
    f.tags("permissions", "Permissions", { help: "resource.action patterns, e.g. product.read or quotation.*" }),
    ...auditFields,
  ],
  relations: {
    base_role: { resource: "role", kind: "one", column: "base_role_id", references: "id" },
    users: { resource: "user", kind: "many", column: "workspace_role_id", references: "id" },
  },
});

export const feedbackResource = defineResource({
  ...CATALOG.feedback,
  table: feedback,
  display: "message",
  search: ["message"],
  defaultOrder: "created_at.desc",
  fields: [
    idField(),
    f.enum("category", "Category", ["idea", "problem", "praise", "question"], { required: true, list: true }),
    f.textarea("message", "Message", { required: true, list: true }),
    f.ref("user_id", "From", "user", "name", { readOnly: true, list: true }),
    // Whoever may change feedback marks it handled; the sender does not (issue 9 new-user pass).
    f.datetime("handled_at", "Handled", {
      list: true,
      afterCreate: true,
      help: "Set when the feedback has been dealt with",
    }),
    f.ref("handled_by", "Handled by", "user", "name", { readOnly: true }),
    ...auditFields,
  ],
  relations: {
    user: { resource: "user", kind: "one", column: "user_id", references: "id" },
  },
});

export const subscriptionResource = defineResource({
  ...CATALOG.subscription,
  table: subscription,
  display: "cycle",
  search: [],
  defaultOrder: "created_at.desc",
  fields: [
    idField(),
    f.ref("tier_id", "Tier", "tier", "title", { readOnly: true, list: true }),
    f.enum("cycle", "Billing", ["monthly", "yearly"], { readOnly: true, list: true }),
    f.money("list_price", "List price", { readOnly: true }),
    f.money("discount", "Discount", { readOnly: true }),
    f.money("price", "Price", { readOnly: true, list: true }),
    f.text("coupon_code", "Coupon", { readOnly: true }),
    f.status("status", "Status", ["active", "cancelled"], { readOnly: true, list: true }),
    f.datetime("starts_at", "Starts", { readOnly: true, list: true }),
    ...auditFields,
  ],
  relations: {
    tier: { resource: "tier", kind: "one", column: "tier_id", references: "id" },
  },
});

// Usage credits: a workspace reads its ledger; platform operators grant or deduct (issue 4 item 9).
export const creditEntryResource = defineResource({
  ...CATALOG.credit_entry,
  table: creditEntry,
  display: "reason",
  search: ["reason"],
  defaultOrder: "created_at.desc",
  fields: [
    idField(),
    f.money("amount", "Amount", { required: true, list: true, help: "Negative to deduct" }),
    f.text("reason", "Reason", { required: true, list: true, width: 300 }),
    // The operator names the workspace a credit is for (the engine takes workspace_id from operators only).
    f.ref("workspace_id", "Workspace", "workspace", "name", { required: true, list: true, operatorOnly: true }),
    f.datetime("created_at", "Date", { readOnly: true, form: false, list: true }),
  ],
  relations: {
    workspace: { resource: "workspace", kind: "one", column: "workspace_id", references: "id" },
  },
});

export const workspaceResource = defineResource({
  ...CATALOG.workspace,
  table: workspace,
  display: "name",
  search: ["name", "slug"],
  defaultOrder: "name.asc",
  fields: [
    idField("text"),
    f.name("name", "Name", { required: true, list: true, width: 240 }),
    f.text("slug", "Address", { readOnly: true, list: true, width: 140 }),
    f.ref("tier_id", "Tier", "tier", "title", { list: true, operatorOnly: true }),
    f.enum("primary_color", "Primary colour", COLORS),
    f.enum("secondary_color", "Secondary colour", COLORS),
    f.text("base_currency", "Base currency", { width: 90 }),
    f.datetime("suspended_at", "Suspended", { list: true, operatorOnly: true }),
    ...auditFields,
  ],
  relations: {
    tier: { resource: "tier", kind: "one", column: "tier_id", references: "id" },
    users: { resource: "user", kind: "many", column: "workspace_id", references: "id" },
    credits: { resource: "credit_entry", kind: "many", column: "workspace_id", references: "id" },
  },
});

export const tierResource = defineResource({
  ...CATALOG.tier,
  table: tier,
  display: "title",
  search: ["title"],
  defaultOrder: "id.asc",
  fields: [
    idField(),
    f.text("slug", "Slug", { readOnly: true, list: true }),
    f.name("title", "Title", { required: true, list: true }),
    f.money("monthly_price", "Monthly price", { list: true, min: 0 }),
    f.money("yearly_price", "Yearly price", { list: true, min: 0 }),
    f.integer("min_users", "Users from", { list: true, min: 0 }),
    f.integer("max_users", "Users up to", { list: true, min: 0 }),
    f.integer("storage_quota_mb", "Storage (MB)", { list: true, min: 1 }), // all of a workspace's files (issue 9)
    f.tags("features", "Features", { options: Object.keys(FEATURES) }),
    ...auditFields,
  ],
  relations: {},
});

export const couponResource = defineResource({
  ...CATALOG.coupon,
  table: coupon,
  naturalKey: "code",
  display: "code",
  search: ["code"],
  defaultOrder: "created_at.desc",
  fields: [
    idField(),
    f.code("code", "Code", { required: true, list: true }),
    f.enum("kind", "Kind", ["percent", "amount"], { required: true, list: true }),
    // A percent (kind "percent") or an amount in S$ (kind "amount"): shown as the plain figure.
    f.number("value", "Value", {
      required: true,
      list: true,
      help: "Percent off, or S$ off, depending on the kind",
      min: 0,
    }),
    f.datetime("valid_from", "Valid from", { list: true }),
    f.datetime("valid_until", "Valid until", { list: true }),
    f.integer("usage_limit", "Usage limit", { min: 0 }),
    f.integer("times_used", "Used", { readOnly: true, list: true }),
    f.boolean("active", "Active", { list: true }),
    ...auditFields,
  ],
  relations: {},
});

export const bannerResource = defineResource({
  ...CATALOG.banner,
  table: banner,
  publicWhere: { active: true },
  display: "title",
  search: ["title", "body"],
  defaultOrder: "created_at.desc",
  fields: [
    idField(),
    f.name("title", "Title", { required: true, list: true, width: 260 }),
    f.textarea("body", "Text"),
    f.url("link_url", "Link", { sitePath: true, help: "A page of this site (/book-a-demo) or a web address" }),
    f.name("link_label", "Link label"),
    f.enum("placement", "Shown on", ["landing", "dashboard"], { list: true }),
    f.datetime("starts_at", "From", { list: true }),
    f.datetime("ends_at", "Until", { list: true }),
    f.boolean("active", "Active", { list: true }),
    ...auditFields,
  ],
  relations: {},
});

export const caseStudyResource = defineResource({
  ...CATALOG.case_study,
  table: caseStudy,
  publicWhere: { published: true },
  display: "title",
  search: ["title", "company_name", "industry"],
  defaultOrder: "sort_order.asc",
  fields: [
    idField(),
    f.name("title", "Title", { required: true, list: true, width: 260 }),
    f.name("company_name", "Company", { required: true, list: true }),
    f.name("industry", "Industry", { required: true, list: true }),
    f.textarea("summary", "Summary", { required: true }),
    f.textarea("quote", "Quote"),
    f.text("quote_author", "Quote by"),
    f.text("metric_value", "Figure"),
    f.text("metric_label", "Figure label"),
    f.boolean("published", "Published", { list: true }),
    f.integer("sort_order", "Order", { list: true }),
    ...auditFields,
  ],
  relations: {},
});

export const demoRequestResource = defineResource({
  ...CATALOG.demo_request,
  table: demoRequest,
  display: "company_name",
  search: ["name", "email", "company_name"],
  defaultOrder: "created_at.desc",
  fields: [
    idField(),
    f.text("name", "Name", { readOnly: true, list: true }),
    f.email("email", "E-mail", { readOnly: true, list: true }),
    f.phone("phone", "Phone", { readOnly: true }),
    f.text("company_name", "Company", { readOnly: true, list: true }),
    f.text("company_size", "Size", { readOnly: true, list: true }),
    f.text("interest", "Interest", { readOnly: true }),
    f.date("preferred_date", "Preferred date", { readOnly: true, list: true }),
    f.textarea("message", "Message", { readOnly: true }),
    f.datetime("handled_at", "Handled", { list: true }),
    ...auditFields,
  ],
  relations: {},
});

// System roles (spec §3, §6): reference data, read only.
export const roleResource = defineResource({
  ...CATALOG.role,
  table: role,
  display: "title",
  search: ["title", "slug"],
  defaultOrder: "id.asc",
  fields: [idField(), f.text("slug", "Slug", { readOnly: true, list: true }), f.text("title", "Title", { list: true })],
  relations: {},
});
