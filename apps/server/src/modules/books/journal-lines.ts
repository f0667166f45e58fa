import Decimal from "decimal.js";

// Issue 12 "Manual journal entries": the lines a clerk typed, checked before anything is written — at least two,
// each one side of a positive amount, the whole balanced (the database checks the balance again at commit). Pure,
// so the web's live totals and the server say the same.

export type LineInput = {
  account_code: string;
  debit?: string | number | null;
  credit?: string | number | null;
  memo?: string | null;
};
export type CheckedLine = { account_code: string; debit: string; credit: string; memo: string | null };
export type LineProblem = { field: string; message: string };

const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;

function amount(v: string | number | null | undefined): Decimal | null | "bad" {
  if (v === null || v === undefined || v === "") return null;
  const text = typeof v === "number" ? String(v) : v.trim().replaceAll(",", "");
  if (text === "") return null;
  if (!AMOUNT.test(text)) return "bad";
  return new Decimal(text);
}

export type Checked = { lines: CheckedLine[]; total: string; problems: LineProblem[] };

export function checkLines(input: readonly LineInput[]): Checked {
  const problems: LineProblem[] = [];
  const lines: CheckedLine[] = [];
  let dr = new Decimal(0);
  let cr = new Decimal(0);
  input.forEach((l, i) => {
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
      debit: (d ?? new Decimal(0)).toFixed(2),
      credit: (c ?? new Decimal(0)).toFixed(2),
      memo: l.memo?.trim() || null,
    });
  });
  if (input.length < 2) problems.push({ field: "lines", message: "A journal entry needs at least two lines" });
  if (problems.length === 0 && !dr.equals(cr)) {
    const by = dr.minus(cr).abs().toFixed(2);
    problems.push({
      field: "lines",
      message: `The entry does not balance: debits ${dr.toFixed(2)} and credits ${cr.toFixed(2)} differ by ${by}`,
    });
  }
  return { lines, total: dr.toFixed(2), problems };
}
