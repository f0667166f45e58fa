import { z } from "zod";
import { ACCOUNT_ROOTS, ACCOUNT_TYPES } from "../db/ledger-schema.ts";
import { decimal, defineCommand, id, instant } from "./define.ts";
import { dayArg } from "./inputs.ts";

// Issue 12's books (modules/books on the server): the chart, bank accounts, manual journals, opening balances, the
// lock date and the year-end close. Each checks BOOKS_ACCESS inside, so none asks a permission here.

// A real day between 1900 and 2099 (issue 21 §2: journals were posted on 9999-12-31).
export const isoDay = (what: string) => dayArg(what);

export const accountCode = z
  .string()
  .trim()
  .regex(/^\d{3,8}$/, "An account code is 3 to 8 digits, like 6400");

const account = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  type: z.string(),
  root: z.enum(ACCOUNT_ROOTS),
  active: z.boolean(),
});

export const journalLine = z.object({
  line_no: z.number(),
  account_code: z.string(),
  debit: decimal,
  credit: decimal,
  memo: z.string().nullable(),
});

const entryHead = z.object({
  id: z.number(),
  number: z.string().nullable(),
  entry_date: z.string(),
  memo: z.string().nullable(),
  source_type: z.string().nullable(),
  source_id: z.number().nullable(),
  reversal_of: z.number().nullable(),
  reversed_by: z.number().nullable(),
});

export const journalEntry = entryHead.extend({
  created_by: z.string().nullable(),
  created_at: instant,
  lines: z.array(journalLine),
});
export type JournalEntry = z.output<typeof journalEntry>;

export const accountCreate = defineCommand({
  name: "account_create",
  args: z.object({
    code: accountCode,
    name: z.string().trim().min(1, "Give the account a name").max(200),
    type: z.enum(ACCOUNT_TYPES, { error: `The type is one of ${ACCOUNT_TYPES.join(", ")}` }),
    contra: z.boolean().nullish(),
  }),
  result: account,
  permission: null,
});

export const accountUpdate = defineCommand({
  name: "account_update",
  args: z.object({
    id,
    name: z.string().trim().min(1, "Give the account a name").max(200).optional(),
    active: z.boolean().optional(),
  }),
  result: account,
  permission: null,
});

// The chart with each account's balance as of a day (debits minus credits).
export const accountBalances = defineCommand({
  name: "account_balances",
  args: z.object({ as_of: isoDay("The date").nullish() }),
  result: z.object({
    as_of: z.string(),
    in_use: z.array(z.string()), // the codes the posting rules use: they stay active
    accounts: z.array(account.extend({ contra: z.boolean(), debit: decimal, credit: decimal, balance: decimal })),
  }),
  permission: null,
});

const Cell = z.union([z.string(), z.number()]).nullish();
const checkedLine = z.object({
  account_code: z.string(),
  debit: decimal,
  credit: decimal,
  memo: z.string().nullable(),
});
const standing = z.object({ id: z.number(), number: z.string(), entry_date: z.string() });

// Opening balances from a file's rows: a preview (post false) or the posted entry.
export const openingBalances = defineCommand({
  name: "opening_balances",
  args: z.object({
    as_of: isoDay("The as-of date"),
    rows: z
      .array(z.object({ account_code: Cell, debit: Cell, credit: Cell, balance: Cell }))
      .max(5000, "At most 5,000 rows"),
    balancing_account_code: z.string().trim().max(64).nullish(),
    post: z.boolean().default(false),
  }),
  result: z.object({
    as_of: z.string(),
    rows: z.array(
      z.object({
        row: z.number(), // the file's line
        account_code: z.string(),
        account_name: z.string().nullable(),
        debit: decimal,
        credit: decimal,
        error: z.string().nullable(),
      }),
    ),
    totals: z.object({ debit: decimal, credit: decimal, difference: decimal }),
    balancing: checkedLine.nullable(),
    problem: z.string().nullable(),
    already: standing.nullable(),
    entry: journalEntry.optional(), // posted
  }),
  permission: null,
});

const text = (what: string, max = 200) => z.string().trim().min(1, `Give the ${what}`).max(max);
const accountNumber = z
  .string()
  .trim()
  .regex(/^[0-9A-Za-z -]{4,34}$/, "An account number has 4 to 34 digits or letters (spaces and dashes allowed)");

export const bankAccount = z.object({
  id: z.number(),
  name: z.string(),
  bank_name: z.string(),
  account_number: z.string(),
  currency: z.string(),
  ledger_account_code: z.string(),
  active: z.boolean(),
});
export type BankAccount = z.output<typeof bankAccount>;

export const bankAccountCreate = defineCommand({
  name: "bank_account_create",
  args: z.object({
    name: text("bank account a name"),
    bank_name: text("bank's name"),
    account_number: accountNumber,
    currency: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{3}$/, "A currency is three letters, like SGD")
      .default("SGD"),
    ledger_account_code: accountCode.nullish(),
  }),
  result: bankAccount,
  permission: null,
});

export const bankAccountUpdate = defineCommand({
  name: "bank_account_update",
  args: z.object({
    id,
    name: text("bank account a name").optional(),
    bank_name: text("bank's name").optional(),
    account_number: accountNumber.optional(),
    active: z.boolean().optional(),
  }),
  result: bankAccount,
  permission: null,
});

const lineInput = z.object({
  account_code: z.string().trim().max(64),
  debit: z.union([z.string(), z.number()]).nullish(),
  credit: z.union([z.string(), z.number()]).nullish(),
  memo: z.string().max(500).nullish(),
});

// A balanced manual entry numbered JE-YYYY-#####; never edited — a mistake is reversed by an entry of its own.
export const journalPost = defineCommand({
  name: "journal_post",
  args: z.object({
    date: isoDay("The date"),
    memo: z.string().trim().min(1, "Say what the entry is for").max(500),
    lines: z.array(lineInput).max(500, "An entry has at most 500 lines"),
  }),
  result: journalEntry,
  permission: null, // journal_entry.create, through BOOKS_ACCESS.postJournal
});

export const journalReverse = defineCommand({
  name: "journal_reverse",
  args: z.object({
    id,
    date: isoDay("The date").nullish(),
    reason: z.string().trim().min(1, "Say why the entry is reversed").max(2000),
  }),
  result: journalEntry, // the reversal
  permission: null,
});

export const journalGet = defineCommand({
  name: "journal_get",
  args: z.object({ id }),
  result: journalEntry,
  permission: null,
});

const SOURCES = ["all", "manual", "opening_balance", "year_end_close", "documents"] as const;

// The Journal page's list: entries newest first with their amount (Σ debits), a page at a time.
export const journalList = defineCommand({
  name: "journal_list",
  args: z.object({
    from: isoDay("From").nullish(),
    to: isoDay("To").nullish(),
    account_code: z.string().trim().max(64).nullish(),
    source: z.union([z.enum(SOURCES), z.string().regex(/^[a-z_]{2,40}$/)]).default("all"),
    search: z.string().trim().max(100).nullish(),
    limit: z.number().int().min(1).max(200).default(50),
    offset: z.number().int().min(0).default(0),
  }),
  result: z.object({ total: z.number(), rows: z.array(entryHead.extend({ amount: decimal })) }),
  permission: null,
});
export type JournalRow = z.output<typeof journalList.result>["rows"][number];

export const yearEndCloseRow = z.object({
  id: z.number(),
  year_start: z.string(),
  year_end: z.string(),
  profit: decimal,
  entry_id: z.number(),
  number: z.string(),
  closed_at: instant,
  closed_by: z.string().nullable(), // names
  reopened_at: instant.nullable(),
  reopened_by: z.string().nullable(),
  reopen_reason: z.string().nullable(),
});

// What the books page shows: the settings, who set the lock date last, and the closes.
export const booksState = z.object({
  lock_date: z.string().nullable(),
  fy_start_month: z.number(),
  lock_set_by: z.string().nullable(),
  lock_set_at: instant.nullable(),
  closes: z.array(yearEndCloseRow),
  opening_balance: standing.nullable(),
});
export type BooksState = z.output<typeof booksState>;

export const booksSettingsGet = defineCommand({
  name: "books_settings_get",
  args: z.object({}),
  result: booksState,
  permission: null,
});

export const booksSettingsSet = defineCommand({
  name: "books_settings_set",
  args: z.object({
    lock_date: isoDay("The lock date").nullable().optional(),
    fy_start_month: z.number().int().min(1, "A month is 1 to 12").max(12, "A month is 1 to 12").optional(),
  }),
  result: booksState,
  permission: null,
});

export const yearEndClose = defineCommand({
  name: "year_end_close",
  args: z.object({ year_end_date: isoDay("The year's last day") }),
  result: z.object({
    id: z.number(),
    year_start: z.string(),
    year_end: z.string(),
    profit: decimal,
    lock_date: z.string(),
    entry: journalEntry,
  }),
  permission: null,
});

export const yearEndReopen = defineCommand({
  name: "year_end_reopen",
  args: z.object({ id, reason: z.string().trim().min(1, "Say why the year is reopened").max(2000) }),
  result: booksState,
  permission: null,
});

export const BOOKS_COMMANDS = [
  accountCreate,
  accountUpdate,
  accountBalances,
  openingBalances,
  bankAccountCreate,
  bankAccountUpdate,
  journalPost,
  journalReverse,
  journalGet,
  journalList,
  booksSettingsGet,
  booksSettingsSet,
  yearEndClose,
  yearEndReopen,
] as const;
