import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  numeric,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { sameWorkspace, tenantColumns, tenantKeys, timestamps } from "./columns.ts";
import { authUser, workspace } from "./platform-schema.ts";

// The books (issue 10 §2, STYLE "The ledger is immutable and balanced in the database"). Journal entries are written
// only by documents and manual journals; every entry balances, checked by a deferred constraint trigger at commit
// (migration 0013: workmetrics_journal_balanced), not only by buildJournal.

export const ACCOUNT_TYPES = [
  "cash",
  "bank",
  "receivable",
  "asset",
  "stock",
  "tax",
  "payable",
  "liability",
  "equity",
  "income",
  "cogs",
  "expense",
] as const;
export const ACCOUNT_ROOTS = ["asset", "liability", "equity", "income", "expense"] as const;

const money = (name: string) => numeric(name, { precision: 14, scale: 2 });

// The workspace's chart of accounts: seeded from CHART_OF_ACCOUNTS (documents/postings.ts) for every workspace,
// editable by finance roles. Journal lines name accounts by code.
export const account = pgTable(
  "account",
  {
    ...tenantColumns,
    code: text("code").notNull(),
    name: text("name").notNull(),
    type: text("type", { enum: ACCOUNT_TYPES }).notNull(),
    root: text("root", { enum: ACCOUNT_ROOTS }).notNull(),
    contra: boolean("contra").notNull().default(false),
    active: boolean("active").notNull().default(true),
    ...timestamps,
  },
  (t) => [...tenantKeys("account", t, workspace), unique("account_code_key").on(t.workspaceId, t.code)],
).enableRLS();

export const journalEntry = pgTable(
  "journal_entry",
  {
    ...tenantColumns,
    number: text("number"), // JE-YYYY-##### for manual journals; a document's entry carries the document's
    entryDate: date("entry_date").notNull(),
    memo: text("memo"),
    sourceType: text("source_type"), // the document that posted it (invoice, delivery_order …); null: manual
    sourceId: bigint("source_id", { mode: "number" }),
    reversalOf: bigint("reversal_of", { mode: "number" }), // cancel writes a reversing entry pointing here
    createdBy: uuid("created_by").references(() => authUser.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...tenantKeys("journal_entry", t, workspace),
    index("journal_entry_source_idx").on(t.workspaceId, t.sourceType, t.sourceId),
    // The report queries take the entries of a date range by this index alone (index-only: the id is in it).
    index("journal_entry_date_idx").on(t.workspaceId, t.entryDate, t.id),
    uniqueIndex("journal_entry_reversal_key").on(t.workspaceId, t.reversalOf),
    sameWorkspace("journal_entry_reversal_fk", [t.workspaceId, t.reversalOf], t),
  ],
).enableRLS();

export const journalLine = pgTable(
  "journal_line",
  {
    ...tenantColumns,
    entryId: bigint("entry_id", { mode: "number" }).notNull(),
    lineNo: integer("line_no").notNull(),
    accountCode: text("account_code").notNull(),
    debit: money("debit").notNull().default("0"),
    credit: money("credit").notNull().default("0"),
    memo: text("memo"),
  },
  (t) => [
    ...tenantKeys("journal_line", t, workspace),
    index("journal_line_entry_idx").on(t.workspaceId, t.entryId),
    // An account's lines by entry: the general ledger takes a period's entries by date, then each one's line of the
    // account straight from here.
    index("journal_line_account_idx").on(t.workspaceId, t.accountCode, t.entryId),
    sameWorkspace("journal_line_entry_fk", [t.workspaceId, t.entryId], journalEntry),
    foreignKey({
      name: "journal_line_account_fk",
      columns: [t.workspaceId, t.accountCode],
      foreignColumns: [account.workspaceId, account.code],
    }),
    // One positive side per line (assertBalanced in documents/postings.ts says the same).
    check("journal_line_one_side", sql`${t.debit} >= 0 and ${t.credit} >= 0 and (${t.debit} = 0) <> (${t.credit} = 0)`),
  ],
).enableRLS();

// Issue 12 "Reports over a million journal lines answer fast": each account's debits and credits per calendar month,
// kept by statement-level triggers on journal_line (migration journal_month: one upsert per account and month a
// statement touches, from its transition table) and on journal_entry's date. The financial reports sum whole months
// here and only the lines of a period's partial first and last months from journal_line, so a trial balance over a
// million lines reads a few thousand rows. Internal: no resource, written only by the triggers.
export const journalMonth = pgTable(
  "journal_month",
  {
    ...tenantColumns,
    accountCode: text("account_code").notNull(),
    month: date("month").notNull(), // the first day of the month
    debit: numeric("debit", { precision: 18, scale: 2 }).notNull().default("0"),
    credit: numeric("credit", { precision: 18, scale: 2 }).notNull().default("0"),
    // Which of a few rows per account and month this one is (migration journal_month_stripes): concurrent postings
    // add to different stripes, so they never wait on each other's row; the reports sum the stripes.
    stripe: smallint("stripe").notNull().default(0),
  },
  (t) => [
    ...tenantKeys("journal_month", t, workspace),
    uniqueIndex("journal_month_key").on(t.workspaceId, t.accountCode, t.month, t.stripe),
  ],
).enableRLS();
