import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { sameWorkspace, tenantColumns, tenantKeys, timestamps } from "./columns.ts";
import { journalEntry } from "./ledger-schema.ts";
import { category } from "./master-schema.ts";
import { authUser, role, user, workspace } from "./platform-schema.ts";

// Issue 12 "Commission" (Premium): rules per salesperson or role, and the statements finance approves and pays.
// Written only by the commission module's commands; statements are computed from the documents and frozen here
// when approved (figures and a snapshot of their lines), so a later credit note never rewrites an approved period.

export const COMMISSION_BASES = ["invoiced", "collected"] as const;
export const COMMISSION_PERIODS = ["monthly", "quarterly"] as const;
export const COMMISSION_STATEMENT_STATUSES = ["approved", "paid"] as const;

// One rule for one user, or for everyone of one system role; the user's own rule wins over their role's.
// tiers: [{from_percent, rate_percent}] ascending from 0 — the rate of the highest tier whose from_percent the
// period's achievement (base ÷ target) reaches applies to the whole base (domain commission.ts).
export const commissionRule = pgTable(
  "commission_rule",
  {
    ...tenantColumns,
    userId: uuid("user_id"),
    roleId: integer("role_id").references(() => role.id),
    basis: text("basis", { enum: COMMISSION_BASES }).notNull().default("invoiced"),
    ratePercent: numeric("rate_percent", { precision: 5, scale: 2 }).notNull(),
    period: text("period", { enum: COMMISSION_PERIODS }).notNull().default("monthly"),
    target: numeric("target", { precision: 14, scale: 2 }),
    tiers: jsonb("tiers").notNull().default(sql`'[]'::jsonb`),
    createdBy: uuid("created_by").references(() => authUser.id),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("commission_rule", t, workspace),
    uniqueIndex("commission_rule_user_key").on(t.workspaceId, t.userId).where(sql`${t.userId} is not null`),
    uniqueIndex("commission_rule_role_key").on(t.workspaceId, t.roleId).where(sql`${t.roleId} is not null`),
    sameWorkspace("commission_rule_user_fk", [t.workspaceId, t.userId], user),
    check("commission_rule_one_subject", sql`(${t.userId} is null) <> (${t.roleId} is null)`),
    check("commission_rule_rate_range", sql`${t.ratePercent} >= 0 and ${t.ratePercent} <= 100`),
    check("commission_rule_target_positive", sql`${t.target} is null or ${t.target} > 0`),
  ],
).enableRLS();

// The product categories a rule leaves out (and their sub-categories): their lines earn no commission.
export const commissionRuleCategory = pgTable(
  "commission_rule_category",
  {
    ...tenantColumns,
    ruleId: bigint("rule_id", { mode: "number" }).notNull(),
    categoryId: bigint("category_id", { mode: "number" }).notNull(),
  },
  (t) => [
    ...tenantKeys("commission_rule_category", t, workspace),
    uniqueIndex("commission_rule_category_key").on(t.workspaceId, t.ruleId, t.categoryId),
    sameWorkspace("commission_rule_category_rule_fk", [t.workspaceId, t.ruleId], commissionRule, "cascade"),
    sameWorkspace("commission_rule_category_category_fk", [t.workspaceId, t.categoryId], category, "cascade"),
  ],
).enableRLS();

// An approved statement: one salesperson, one whole period, its figures and lines as they were approved, and the
// journal entries that booked it (Dr 6000 / Cr 2400) and paid it (Dr 2400 / Cr bank).
export const commissionStatement = pgTable(
  "commission_statement",
  {
    ...tenantColumns,
    salespersonId: uuid("salesperson_id").notNull(),
    periodFrom: date("period_from").notNull(),
    periodTo: date("period_to").notNull(),
    status: text("status", { enum: COMMISSION_STATEMENT_STATUSES }).notNull().default("approved"),
    basis: text("basis", { enum: COMMISSION_BASES }).notNull(),
    base: numeric("base", { precision: 14, scale: 2 }).notNull(),
    target: numeric("target", { precision: 14, scale: 2 }),
    achievementPercent: numeric("achievement_percent", { precision: 9, scale: 2 }),
    ratePercent: numeric("rate_percent", { precision: 5, scale: 2 }).notNull(),
    commission: numeric("commission", { precision: 14, scale: 2 }).notNull(),
    lines: jsonb("lines").notNull(),
    journalEntryId: bigint("journal_entry_id", { mode: "number" }),
    approvedAt: timestamp("approved_at", { withTimezone: true }).notNull().defaultNow(),
    approvedBy: uuid("approved_by").references(() => authUser.id),
    paidDate: date("paid_date"),
    paidAccount: text("paid_account"),
    paymentEntryId: bigint("payment_entry_id", { mode: "number" }),
    paidBy: uuid("paid_by").references(() => authUser.id),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("commission_statement", t, workspace),
    index("commission_statement_salesperson_idx").on(t.workspaceId, t.salespersonId, t.periodFrom),
    sameWorkspace("commission_statement_salesperson_fk", [t.workspaceId, t.salespersonId], user),
    sameWorkspace("commission_statement_entry_fk", [t.workspaceId, t.journalEntryId], journalEntry),
    sameWorkspace("commission_statement_payment_entry_fk", [t.workspaceId, t.paymentEntryId], journalEntry),
    check("commission_statement_period_in_order", sql`${t.periodTo} >= ${t.periodFrom}`),
  ],
).enableRLS();
