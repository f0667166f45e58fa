import type Decimal from "decimal.js";
import { Dec } from "../documents/decimal.ts";

// Issue 12 "Manual journal entries": the lines a clerk typed, checked before anything is written — at least two,
// each one side of a positive amount in cents, the whole balanced (the database checks the balance again at commit).
// One pure rule: the New journal form runs it on every keystroke (its running totals and why Post waits), the
// journal_post command runs it before writing.

export type LineInput = {
  account_code: string;
  debit?: string | number | null;
  credit?: string | number | null;
  memo?: string | null;
};
export type CheckedLine = { account_code: string; debit: string; credit: string; memo: string | null };
export type LineProblem = { field: string; message: string };

export type Checked = {
  lines: CheckedLine[];
  // The running totals of the good lines, and how far apart they are (never negative), in cents.
  debit: string;
  credit: string;
  difference: string;
  problems: LineProblem[];
};

const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;

function amount(v: string | number | null | undefined): Decimal | null | "bad" {
  if (v === null || v === undefined) return null;
  const text = String(v).trim().replaceAll(",", "");
  if (text === "") return null;
  if (!AMOUNT.test(text)) return "bad";
  return new Dec(text);
}

// A line with no account and no amount: a row the form keeps ready, not a line of the entry.
export const isBlankLine = (l: LineInput): boolean =>
  !(l.account_code ?? "").trim() && amount(l.debit) === null && amount(l.credit) === null;

// `skipBlank`: blank rows are left out (the form's spare rows), lines still numbered by their place in `input`.
export function checkLines(input: readonly LineInput[], opts: { skipBlank?: boolean } = {}): Checked {
  const problems: LineProblem[] = [];
  const lines: CheckedLine[] = [];
  let dr = new Dec(0);
  let cr = new Dec(0);
  input.forEach((l, i) => {
    if (opts.skipBlank && isBlankLine(l)) return;
    const at = (f: string) => `lines.${i}.${f}`;
    const n = i + 1;
    const code = (l.account_code ?? "").trim();
    if (!code) problems.push({ field: at("account_code"), message: `Line ${n}: choose an account` });
    const d = amount(l.debit);
    const c = amount(l.credit);
    if (d === "bad")
      problems.push({ field: at("debit"), message: `Line ${n}: the debit is not an amount (like 1250.00)` });
    if (c === "bad")
      problems.push({ field: at("credit"), message: `Line ${n}: the credit is not an amount (like 1250.00)` });
    if (d === "bad" || c === "bad") return;
    const dPos = d !== null && !d.isZero();
    const cPos = c !== null && !c.isZero();
    if (dPos && cPos) {
      problems.push({ field: at("credit"), message: `Line ${n}: give a debit or a credit, not both` });
      return;
    }
    if (!dPos && !cPos) {
      problems.push({ field: at("debit"), message: `Line ${n}: give a debit or a credit amount` });
      return;
    }
    dr = dr.plus(d ?? 0);
    cr = cr.plus(c ?? 0);
    lines.push({
      account_code: code,
      debit: (d ?? new Dec(0)).toFixed(2),
      credit: (c ?? new Dec(0)).toFixed(2),
      memo: l.memo?.trim() || null,
    });
  });
  const used = opts.skipBlank ? input.filter((l) => !isBlankLine(l)).length : input.length;
  if (used < 2) problems.push({ field: "lines", message: "A journal entry needs at least two lines" });
  const difference = dr.minus(cr).abs();
  if (problems.length === 0 && !difference.isZero()) {
    problems.push({
      field: "lines",
      message: `The entry does not balance: debits ${dr.toFixed(2)} and credits ${cr.toFixed(2)} differ by ${difference.toFixed(2)}`,
    });
  }
  return {
    lines,
    debit: dr.toFixed(2),
    credit: cr.toFixed(2),
    difference: difference.toFixed(2),
    problems,
  };
}
