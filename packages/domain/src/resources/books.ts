import type { Requirement } from "../access.ts";
import { bankAccount, booksSettings, yearEndClose } from "../db/books-schema.ts";
import type { ACCOUNT_ROOTS, ACCOUNT_TYPES } from "../db/ledger-schema.ts";
import { defineResource } from "./define.ts";
import { auditFields, f, idField } from "./fields.ts";
import type { ResourceDef } from "./types.ts";

// Resources for the books (issue 12): bank accounts, the books settings (lock date, financial year start) and the
// year-end closes, read through /rest/v1 and written by the books commands (modules/books), which check what a
// table cannot (a bank account posts to a cash or bank account of the chart; the lock date is audited).

const ro = { readOnly: true };

export const bankAccountResource = defineResource({
  name: "bank_account",
  title: "Bank account",
  plural: "Bank accounts",
  route: null,
  scope: "tenant",
  feature: "accounting",
  actions: ["read"],
  table: bankAccount,
  display: "name",
  search: ["name", "bank_name"],
  defaultOrder: "name.asc",
  fields: [
    idField(),
    f.name("name", "Name", { ...ro, list: true }),
    f.name("bank_name", "Bank", { ...ro, list: true }),
    f.code("account_number", "Account number", { ...ro, list: true }),
    f.code("currency", "Currency", { ...ro, list: true }),
    f.code("ledger_account_code", "Ledger account", { ...ro, list: true }),
    f.boolean("active", "Active", { ...ro, list: true }),
    ...auditFields,
  ],
  relations: {},
});

export const booksSettingsResource = defineResource({
  name: "books_settings",
  title: "Books settings",
  plural: "Books settings",
  route: null,
  scope: "tenant",
  feature: "accounting",
  actions: ["read"],
  permissionOf: "account",
  keptCount: false,
  table: booksSettings,
  display: "lock_date",
  search: [],
  defaultOrder: "id.asc",
  fields: [
    idField(),
    f.date("lock_date", "Lock date", { ...ro, list: true }),
    f.integer("fy_start_month", "Financial year starts (month)", { ...ro, list: true }),
    f.ref("lock_set_by", "Lock date set by", "user", "name", ro),
    f.datetime("lock_set_at", "Lock date set", { ...ro, form: false }),
    ...auditFields,
  ],
  relations: {},
});

export const yearEndCloseResource = defineResource({
  name: "year_end_close",
  title: "Year-end close",
  plural: "Year-end closes",
  route: null,
  scope: "tenant",
  feature: "accounting",
  actions: ["read"],
  permissionOf: "account",
  keptCount: false,
  table: yearEndClose,
  display: "year_end",
  search: [],
  defaultOrder: "year_end.desc,id.desc",
  fields: [
    idField(),
    f.date("year_start", "Year starts", { ...ro, list: true }),
    f.date("year_end", "Year ends", { ...ro, list: true }),
    f.ref("entry_id", "Closing entry", "journal_entry", "number", ro),
    f.money("profit", "Profit moved to retained earnings", { ...ro, list: true }),
    f.ref("closed_by", "Closed by", "user", "name", ro),
    f.datetime("closed_at", "Closed", { ...ro, form: false }),
    f.ref("reopened_by", "Reopened by", "user", "name", ro),
    f.datetime("reopened_at", "Reopened", { ...ro, form: false }),
    f.text("reopen_reason", "Why reopened", ro),
  ],
  relations: {
    entry: { resource: "journal_entry", kind: "one", column: "entry_id", references: "id" },
  },
});

export const BOOKS_RESOURCES: readonly ResourceDef[] = [
  bankAccountResource,
  booksSettingsResource,
  yearEndCloseResource,
];

const books = (permission: string, does: string): Requirement => ({
  audience: "member",
  permission,
  feature: "accounting",
  subject: "The books",
  does,
});

// Who does what in the books, on the server (modules/books) and in the web alike (the one access rule).
export const BOOKS_ACCESS = {
  readJournal: books("journal_entry.read", "read the journal"),
  postJournal: books("journal_entry.create", "post journal entries"),
  readAccounts: books("account.read", "read the chart of accounts"),
  createAccount: books("account.create", "add accounts to the chart"),
  updateAccount: books("account.update", "change the chart of accounts"),
  // The lock date and the year-end close are the chart's owner's: finance managers (account.update).
  lockBooks: books("account.update", "set the lock date"),
  closeYear: books("account.update", "close the financial year"),
  readBankAccounts: books("bank_account.read", "read the bank accounts"),
  createBankAccount: books("bank_account.create", "add bank accounts"),
  updateBankAccount: books("bank_account.update", "change bank accounts"),
} as const satisfies Record<string, Requirement>;

export type AccountRoot = (typeof ACCOUNT_ROOTS)[number];
type AccountType = (typeof ACCOUNT_TYPES)[number];

// An account code's first digit says its root (1 assets, 2 liabilities, 3 equity, 4 income, 5–9 expenses), as in
// the chart every workspace starts with (DOCUMENTS.md §2); the server and the Add account form read it alike.
const ROOT_BY_DIGIT: Record<string, AccountRoot> = { "1": "asset", "2": "liability", "3": "equity", "4": "income" };
export const rootOfCode = (code: string): AccountRoot => ROOT_BY_DIGIT[code[0]] ?? "expense";

// The types an account of each root may have, the usual one first (the form's default).
export const TYPES_BY_ROOT: Record<AccountRoot, readonly AccountType[]> = {
  asset: ["bank", "cash", "receivable", "stock", "tax", "asset"],
  liability: ["payable", "tax", "liability"],
  equity: ["equity"],
  income: ["income"],
  expense: ["expense", "cogs"],
};

// The clerk's words for the day a setting names: "31 Mar 2026".
export function spellDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m) return iso;
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  return `${Number(m[3])} ${months[Number(m[2]) - 1]} ${m[1]}`;
}

// The financial year holding `day` when years start on the first of `startMonth`: [first day, last day].
export function financialYear(day: string, startMonth = 1): { start: string; end: string } {
  const [y, mo] = day.split("-").map(Number);
  const startYear = mo >= startMonth ? y : y - 1;
  const start = `${startYear}-${String(startMonth).padStart(2, "0")}-01`;
  const endDate = new Date(Date.UTC(startYear + 1, startMonth - 1, 0));
  return { start, end: endDate.toISOString().slice(0, 10) };
}
