import { dec, money } from "@workmetrics/domain/documents/decimal";

// The point of sale's payment rules (issue 22), apart from the screen so tests hold them: what the payments leave
// due, the change (from cash only), and the quick cash tenders.

type Tender = { method: string; amount: string };

const AMOUNT = /^\d+(\.\d{1,2})?$/;
export const validAmount = (a: string) => AMOUNT.test(a.trim()) && Number(a) > 0;

// What the payments leave: the remainder still due, and the change.
export function settle(total: string, payments: Tender[]) {
  const due = dec(total);
  const ok = payments.filter((p) => validAmount(p.amount));
  const paid = ok.reduce((n, p) => n.plus(dec(p.amount.trim())), dec("0"));
  const cash = ok.filter((p) => p.method === "cash").reduce((n, p) => n.plus(dec(p.amount.trim())), dec("0"));
  const over = paid.minus(due);
  const remaining = over.isNegative() ? over.neg() : dec("0");
  const change = over.isPositive() ? over : dec("0");
  return {
    remaining: money(remaining),
    change: money(change),
    covered: !over.isNegative(),
    // Card, PayNow and vouchers never pay more than is due: the change must come out of the cash.
    changeOk: change.lte(cash),
    allValid: payments.every((p) => validAmount(p.amount)),
  };
}

// Quick tenders for cash: exact, and the next notes up (S$5, S$10, S$50, S$100), at most four in all.
export function quickTenders(due: string): string[] {
  const n = Number(due);
  if (!(n > 0)) return [];
  const ups = [5, 10, 50, 100].map((step) => Math.ceil(n / step) * step).filter((v) => v > n);
  return [money(due), ...[...new Set(ups)].slice(0, 3).map((v) => money(String(v)))];
}
