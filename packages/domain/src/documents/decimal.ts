import Decimal from "decimal.js";
import { roundMoney } from "../money.ts";

// DESIGN §2.3.1 "Money": decimal strings over the wire, decimal.js in code, never binary floats. Documents compute
// with 40 significant digits (a private clone, so the shared Decimal's settings stay untouched) so qty (3 dp) ×
// price × discount × exchange rate never loses a digit before the one rounding to cents.
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

// A decimal string or an exact decimal. Numbers are not accepted: 0.1 + 0.2 is how books stop balancing.
export type DecimalInput = string | Decimal;

// A refusal a clerk can read ("The discount on line 2 must be between 0 and 100%"); the server answers it as a
// 4xx in the PostgREST error shape (DESIGN §2.3.1 "Refusals"), never a 500.
export class DocumentError extends Error {
  override name = "DocumentError";
}

// Plain decimal notation only: decimal.js would also take "1e3", "0x10" and "Infinity".
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

export function dec(value: DecimalInput, what = "An amount"): Decimal {
  if (typeof value !== "string") return new Dec(value);
  const text = value.trim();
  if (!DECIMAL.test(text)) throw new DocumentError(`${what} must be a number, not "${value}"`);
  return new Dec(text);
}

// Money out: two decimals, half-up (money.ts, DESIGN §2.3).
export const money = (value: DecimalInput): string => roundMoney(dec(value));

// Quantities and percentages out: no exponent, no trailing zeros ("4", "2.5"), never "-0".
export function plain(value: DecimalInput): string {
  const d = dec(value);
  return d.isZero() ? "0" : d.toFixed();
}

export const sum = (values: readonly DecimalInput[]): Decimal =>
  values.reduce<Decimal>((acc, v) => acc.plus(dec(v)), new Dec(0));
