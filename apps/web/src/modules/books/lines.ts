import { type Checked, checkLines, isBlankLine } from "@workmetrics/domain/books/journal-lines";

// The New journal form's lines as typed, and what the form shows live: the domain's check of them (the one
// journal_post runs) — the running totals, how far out of balance, each line's problem — and why Post waits.

export type DraftLine = { key: number; account_code: string; debit: string; credit: string; memo: string };

export type FormCheck = Checked & {
  // Why Post is not offered yet, in words; null when the server would take the entry.
  blocker: string | null;
  // The first problem of each row, by the row's field ("lines.2.debit" → the message).
  byField: Map<string, string>;
};

export function checkForm(form: { date: string; memo: string; lines: readonly DraftLine[] }): FormCheck {
  const checked = checkLines(form.lines, { skipBlank: true });
  const byField = new Map<string, string>();
  for (const p of checked.problems) if (!byField.has(p.field)) byField.set(p.field, p.message);
  const blocker = !form.date
    ? "Give the entry's date"
    : !form.memo.trim()
      ? "Say what the entry is for in the memo"
      : (checked.problems[0]?.message ?? null);
  return { ...checked, blocker, byField };
}

// The lines the server gets: blank rows dropped.
export const toSend = (lines: readonly DraftLine[]) =>
  lines
    .filter((l) => !isBlankLine(l))
    .map((l) => ({
      account_code: l.account_code,
      debit: l.debit.trim() || null,
      credit: l.credit.trim() || null,
      memo: l.memo.trim() || null,
    }));

let next = 1;
export const blankLine = (): DraftLine => ({ key: next++, account_code: "", debit: "", credit: "", memo: "" });
