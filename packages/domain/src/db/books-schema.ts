import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  foreignKey,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { sameWorkspace, tenantColumns, tenantKeys, timestamps } from "./columns.ts";
import { account, journalEntry } from "./ledger-schema.ts";
import { authUser, workspace } from "./platform-schema.ts";

// Tables for the books (issue 12): bank accounts, the workspace's books settings (lock date, financial year start)
// and the year-end closes. Manual journals and opening balances are journal entries (ledger-schema.ts): a manual
// journal has source_type null, the opening balances 'opening_balance', a close 'year_end_close'.

// A bank account of the workspace, posting to a cash/bank account of its chart (1010 Bank SGD, or a 10xx made for
// it). The number is kept whole; lists show it masked.
export const bankAccount = pgTable(
  "bank_account",
  {
    ...tenantColumns,
    name: text("name").notNull(),
    bankName: text("bank_name").notNull(),
    accountNumber: text("account_number").notNull(),
    currency: text("currency").notNull().default("SGD"),
    ledgerAccountCode: text("ledger_account_code").notNull(),
    active: boolean("active").notNull().default(true),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("bank_account", t, workspace),
    uniqueIndex("bank_account_name_key").on(t.workspaceId, t.name),
    uniqueIndex("bank_account_ledger_key").on(t.workspaceId, t.ledgerAccountCode),
    foreignKey({
      name: "bank_account_ledger_fk",
      columns: [t.workspaceId, t.ledgerAccountCode],
      foreignColumns: [account.workspaceId, account.code],
    }),
    check("bank_account_currency", sql`${t.currency} ~ '^[A-Z]{3}$'`),
  ],
).enableRLS();

// One row per workspace (made when first set): nothing posts on or before lock_date (the trigger of migration
// books_lock_date on journal_entry); the financial year starts on the first day of fy_start_month.
export const booksSettings = pgTable(
  "books_settings",
  {
    ...tenantColumns,
    lockDate: date("lock_date"),
    fyStartMonth: integer("fy_start_month").notNull().default(1),
    lockSetBy: uuid("lock_set_by").references(() => authUser.id),
    lockSetAt: timestamp("lock_set_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("books_settings", t, workspace),
    uniqueIndex("books_settings_workspace_key").on(t.workspaceId),
    check("books_settings_fy_month", sql`${t.fyStartMonth} between 1 and 12`),
  ],
).enableRLS();

// A financial year closed: the entry moving its income and expense to 3100 Retained Earnings. Reopening reverses the
// entry and keeps the row (reopened_*), so the same year can be closed again.
export const yearEndClose = pgTable(
  "year_end_close",
  {
    ...tenantColumns,
    yearStart: date("year_start").notNull(),
    yearEnd: date("year_end").notNull(),
    entryId: bigint("entry_id", { mode: "number" }).notNull(),
    profit: numeric("profit", { precision: 16, scale: 2 }).notNull(),
    closedBy: uuid("closed_by").references(() => authUser.id),
    closedAt: timestamp("closed_at", { withTimezone: true }).notNull().defaultNow(),
    reopenedBy: uuid("reopened_by").references(() => authUser.id),
    reopenedAt: timestamp("reopened_at", { withTimezone: true }),
    reopenReason: text("reopen_reason"),
  },
  (t) => [
    ...tenantKeys("year_end_close", t, workspace),
    uniqueIndex("year_end_close_open_key").on(t.workspaceId, t.yearEnd).where(sql`${t.reopenedAt} is null`),
    sameWorkspace("year_end_close_entry_fk", [t.workspaceId, t.entryId], journalEntry),
    check("year_end_close_dates", sql`${t.yearStart} <= ${t.yearEnd}`),
  ],
).enableRLS();
