import { Dec, dec } from "@workmetrics/domain/documents/decimal";
import { formatMoney } from "@workmetrics/domain/money";

// How printed figures read: money with two decimals and the currency ("SGD 1,234.50"), amounts in a table without
// it (the column says), quantities without trailing zeros, dates as a clerk writes them ("3 Nov 2026").

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

export function day(iso: string | null | undefined): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso ?? "");
  return m ? `${Number(m[3])} ${MONTHS[Number(m[2]) - 1]} ${m[1]}` : "";
}

export const moneyOf = (value: string | null | undefined, currency: string): string =>
  formatMoney(dec(value ?? "0"), currency);

// 1234.5 → "1,234.50"; negative with a minus.
export function amount(value: string | null | undefined): string {
  const n = dec(value ?? "0");
  const [int, frac] = n.abs().toFixed(2).split(".");
  return `${
    n.isNegative() &&
    !n
      .abs()
      .toFixed(2)
      .match(/^0\.00$/)
      ? "-"
      : ""
  }${int.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${frac}`;
}

// A unit price keeps the decimals it was given (4 at most), at least two: 12.5000 → "12.50", 0.1234 → "0.1234".
export function price(value: string | null | undefined): string {
  const n = dec(value ?? "0");
  const places = Math.max(2, n.decimalPlaces());
  const [int, frac] = n.abs().toFixed(places).split(".");
  return `${n.isNegative() ? "-" : ""}${int.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${frac}`;
}

export const quantity = (value: string | null | undefined): string => {
  const n = dec(value ?? "0");
  return n.isZero() ? "0" : n.toFixed();
};

export const percent = (value: string | null | undefined): string => `${quantity(value)}%`;

export const isZero = (value: string | null | undefined): boolean => dec(value ?? "0").isZero();

export const minus = (a: string, b: string): string => new Dec(dec(a)).minus(dec(b)).toFixed(2);

// "Delivery order" → "Delivery Order": a printed title is a heading.
export const heading = (title: string): string => title.replace(/\b[a-z]/g, (c) => c.toUpperCase());
