import { Dec } from "@workmetrics/domain/documents/decimal";

// The public order form's quantity as typed: letters are not a number (the field says so, as the document page
// does), and the estimate counts only quantities that are numbers — typed text never reaches Dec unguarded.
const QUANTITY = /^\d{1,11}(\.\d{1,3})?$/;

export const validQty = (v: unknown): boolean => typeof v === "string" && QUANTITY.test(v.trim());

// "must be a number" for text that is not one at all ("abc", "2x"); null for empty, valid or merely too precise
// text (the shared schema says what a quantity looks like).
export function notANumber(v: unknown): string | null {
  const t = String(v ?? "").trim();
  if (t === "" || validQty(t) || /^[\d.,\s]+$/.test(t)) return null;
  return `Quantity must be a number, not "${t.length > 12 ? `${t.slice(0, 12)}…` : t}"`;
}

export function estimateOf(products: readonly { price: string }[], qtys: readonly unknown[]): InstanceType<typeof Dec> {
  return products.reduce((sum, p, i) => {
    const q = qtys[i];
    return validQty(q) ? sum.plus(new Dec(String(q).trim()).times(p.price)) : sum;
  }, new Dec(0));
}
