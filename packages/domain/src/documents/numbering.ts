// DESIGN §2.3.1 "Numbers" and DOCUMENTS.md §4: PFX-YYYY-##### per workspace, type and year, gapless, given when a
// document leaves draft. The counter lives in the database; this file only spells and reads numbers.

// The default prefix of every numbered document, keyed by its table (DESIGN §2.3.1 "Tables").
export const DEFAULT_PREFIXES = {
  quotation: "QT",
  sales_order: "SO",
  delivery_instruction: "DI",
  delivery_order: "DO",
  invoice: "INV",
  receipt: "RCT",
  credit_note: "CN",
  debit_note: "DN",
  goods_return_note: "GRN",
  customer_order: "ORD",
  purchase_order: "PO",
  supplier_delivery_order: "SDO",
  supplier_invoice: "SINV",
  supplier_payment: "PAY",
  goods_transfer_form: "GTF",
  loan_form: "LN",
  progressive_claim: "PC",
  journal_entry: "JE",
  pick_list: "PL", // issue 22 "Warehouse"
  stock_count: "SC",
  expense_claim: "EXP", // issue 24: expense claims
} as const;

export type NumberedType = keyof typeof DEFAULT_PREFIXES;
export const NUMBERED_TYPES = Object.keys(DEFAULT_PREFIXES) as NumberedType[];

export const isNumberedType = (type: string): type is NumberedType => Object.hasOwn(DEFAULT_PREFIXES, type);

// Five digits, more when a year passes 99,999 documents of one type (ERPNext's ##### grows the same way).
const DIGITS = 5;

export type DocumentNumber = { prefix: string; year: number; n: number };

function checkYear(year: number): void {
  if (!Number.isInteger(year) || year < 1000 || year > 9999) throw new RangeError(`Not a four-digit year: ${year}`);
}

export function formatNumber(prefix: string, year: number, n: number): string {
  const problem = prefixError(prefix);
  if (problem) throw new RangeError(problem);
  checkYear(year);
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`A document number counts from 1, not ${n}`);
  return `${prefix}-${year}-${String(n).padStart(DIGITS, "0")}`;
}

const NUMBER = /^([A-Z][A-Z0-9]{0,7})-(\d{4})-(\d{5,})$/;

// Null for anything formatNumber would not have written ("QT-2026-0001", "QT-2026-012345", "qt-2026-00001"), so
// a search box can tell a number from free text.
export function parseNumber(text: string): DocumentNumber | null {
  const m = NUMBER.exec(text.trim());
  if (!m) return null;
  const parsed = { prefix: m[1], year: Number(m[2]), n: Number(m[3]) };
  if (!Number.isSafeInteger(parsed.n) || parsed.n < 1 || parsed.year < 1000) return null;
  return formatNumber(parsed.prefix, parsed.year, parsed.n) === text.trim() ? parsed : null;
}

// The counter's year is the document date's (ERPNext's .YYYY. reads posting_date), not today's: an invoice dated
// 31 December and submitted on 2 January belongs to the old year's series.
export function numberYear(docDate: string): number {
  const m = /^(\d{4})-\d{2}-\d{2}/.exec(docDate);
  if (!m) throw new RangeError(`Not an ISO date: ${docDate}`);
  const year = Number(m[1]);
  checkYear(year);
  return year;
}

// ERPNext's amend naming: the draft that amends a cancelled QT-2026-00001 is numbered QT-2026-00001-1 when it is
// submitted, the one amending that QT-2026-00001-2; the counter is not used, so the series stays gapless.
export function amendedNumber(original: string): string {
  const m = /^(.+-\d{4}-\d{5,})(?:-(\d+))?$/.exec(original.trim());
  if (!m) throw new RangeError(`Not a document number: ${original}`);
  return `${m[1]}-${Number(m[2] ?? 0) + 1}`;
}

// ---- the per-workspace prefix (issue 10 §1: editable in settings) ------------------------------------------------

// Settings upper-case and trim what the clerk types before checking it.
export const normalizePrefix = (text: string): string => text.trim().toUpperCase();

// 1–8 capital letters or digits, starting with a letter so a number never reads as a date ("2026-2026-00001").
export function prefixError(prefix: string): string | null {
  if (prefix.length === 0) return "Give a prefix, like INV";
  if (prefix.length > 8) return "A prefix has at most 8 characters";
  if (!/^[A-Z0-9]+$/.test(prefix)) return "A prefix has only capital letters and digits, like INV or INV2";
  if (!/^[A-Z]/.test(prefix)) return "A prefix starts with a letter, like INV";
  return null;
}

export type PrefixSettings = Partial<Record<NumberedType, string>>;

export const prefixFor = (type: NumberedType, settings: PrefixSettings = {}): string =>
  settings[type] ?? DEFAULT_PREFIXES[type];

// Two types sharing a prefix would print the same number on two documents. `titles` names the types in the message.
export function prefixConflict(
  settings: PrefixSettings,
  titles: Partial<Record<NumberedType, string>> = {},
): string | null {
  const seen = new Map<string, NumberedType>();
  const name = (t: NumberedType) => titles[t] ?? t.replaceAll("_", " ");
  for (const type of NUMBERED_TYPES) {
    const prefix = prefixFor(type, settings);
    const other = seen.get(prefix);
    if (other) return `${prefix} is already the prefix of ${name(other)}; choose another for ${name(type)}`;
    seen.set(prefix, type);
  }
  return null;
}
