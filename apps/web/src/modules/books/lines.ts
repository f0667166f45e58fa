import { Dec } from "@workmetrics/domain/documents/decimal";

type Decimal = InstanceType<typeof Dec>;

// The New journal form's lines as typed, and what the form shows live: the totals, how far out of balance, and
// whether the server would take them (the server checks again: modules/books/journal-lines.ts).

export type DraftLine = { key: number; account_code: string; debit: string; credit: string; memo: string };

const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;

const read = (v: string): Decimal | null => {
  const t = v.trim().replaceAll(",", "");
  return t && AMOUNT.test(t) ? new Dec(t) : null;
};

export type Totals = { debit: string; credit: string; difference: string; balanced: boolean; ready: boolean };

export function totals(lines: readonly DraftLine[]): Totals {
  let dr = new Dec(0);
  let cr = new Dec(0);
  let used = 0;
  let bad = false;
  for (const l of lines) {
    const blank = !l.account_code && !l.debit.trim() && !l.credit.trim();
    if (blank) continue;
    const d = l.debit.trim() ? read(l.debit) : new Dec(0);
    const c = l.credit.trim() ? read(l.credit) : new Dec(0);
    if (d === null || c === null || !l.account_code || d.isZero() === c.isZero()) bad = true;
    dr = dr.plus(d ?? 0);
    cr = cr.plus(c ?? 0);
    used++;
  }
  const difference = dr.minus(cr);
  const balanced = difference.isZero() && !dr.isZero();
  return {
    debit: dr.toFixed(2),
    credit: cr.toFixed(2),
    difference: difference.abs().toFixed(2),
    balanced,
    ready: balanced && !bad && used >= 2,
  };
}

// The lines the server gets: blank rows dropped.
export const toSend = (lines: readonly DraftLine[]) =>
  lines
    .filter((l) => l.account_code || l.debit.trim() || l.credit.trim())
    .map((l) => ({
      account_code: l.account_code,
      debit: l.debit.trim() || null,
      credit: l.credit.trim() || null,
      memo: l.memo.trim() || null,
    }));

let next = 1;
export const blankLine = (): DraftLine => ({ key: next++, account_code: "", debit: "", credit: "", memo: "" });
