import { Dec } from "@workmetrics/domain/documents/decimal";

// A claim line's work done to date is typed as a percentage or, on a line with a contract quantity, measured as a
// quantity (issue 12 "or quantity"); the other follows. Pure, so the switch between them is tested apart from the page.

export type Measure = "percent" | "qty";

const given = (v: unknown) => v !== null && v !== undefined && String(v).trim() !== "";
const NUMBER = /^-?\d+(\.\d+)?$/;
const num = (v: unknown) => (given(v) && NUMBER.test(String(v).trim()) ? new Dec(String(v).trim()) : null);
const plain = (d: InstanceType<typeof Dec>) => (d.isZero() ? "0" : d.toFixed());

// How a line is claimed: measured when it carries a quantity done to date.
export const measureOf = (cumulativeQty: unknown): Measure => (given(cumulativeQty) ? "qty" : "percent");

// The quantity a percentage of the contract quantity is (3 places, as stored), or "" when either is missing.
export function qtyOfPercent(contractQty: unknown, percent: unknown): string {
  const of = num(contractQty);
  const p = num(percent);
  return of && p ? plain(of.times(p).dividedBy(100).toDecimalPlaces(3)) : "";
}

// The percentage a quantity is of the contract quantity (4 places, as stored), or "".
export function percentOfQty(contractQty: unknown, qty: unknown): string {
  const of = num(contractQty);
  const q = num(qty);
  return of && q && of.greaterThan(0) ? plain(q.times(100).dividedBy(of).toDecimalPlaces(4)) : "";
}

// A figure in its input: as the clerk typed it, or — while it is still the value the server stored ("90.0000",
// "340.000") — without the stored places ("90", "340"). Only an untouched value is trimmed, so typing "90.05" never
// jumps to "90.0" → "90" under the caret.
export const asTyped = (value: unknown, stored: unknown): string => {
  const v = value === null || value === undefined ? "" : String(value);
  const q = v === String(stored ?? "") ? num(v) : null;
  return q ? plain(q) : v;
};

// "340 m²", "2.5": a quantity as read, with its unit.
export const withUnit = (qty: unknown, unit: unknown) => {
  const q = num(qty);
  const u = given(unit) ? ` ${String(unit).trim()}` : "";
  return q ? `${plain(q)}${u}` : "";
};

// The line's writable fields once switched to `to`: measured from the percentage it had, or back to the percentage
// its quantity was (and no quantity, so the server takes the percentage).
export function switchMeasure(
  to: Measure,
  line: { contractQty: unknown; percent: unknown; qty: unknown },
): { cumulative_qty: string | null; cumulative_percent?: string } {
  if (to === "qty") return { cumulative_qty: qtyOfPercent(line.contractQty, line.percent) || "0" };
  const percent = percentOfQty(line.contractQty, line.qty);
  return percent ? { cumulative_qty: null, cumulative_percent: percent } : { cumulative_qty: null };
}
