import { dec } from "@workmetrics/domain/documents/decimal";
import type Decimal from "decimal.js";

// The arithmetic of buying for stock (issue 11 "Stock"), apart from the queries so it can be tested alone.

export type Figures = {
  on_hand: string;
  reserved: string;
  on_order: string;
  available: string;
  min_qty: string | null;
};

const ZERO = dec("0");
const atLeastZero = (d: Decimal) => (d.isNegative() ? ZERO : d);

// What a sales order wanting `wanted` (of which its own reservation is part of `reserved`) lacks: on hand less
// what the other orders reserve, plus what open purchase orders bring, is what it can have.
export function shortOf(wanted: string, f: Figures): Decimal {
  const want = dec(wanted);
  const free = dec(f.on_hand).minus(dec(f.reserved).minus(want)).plus(dec(f.on_order));
  return atLeastZero(want.minus(atLeastZero(free)));
}

// How much to buy for a reorder level: its reorder quantity, or the gap below the minimum when that is more — only
// when the level is the product's one considered (the figures are the product's; several levels share them).
export function reorderQuantity(reorderQty: string, f: Figures, onlyLevel: boolean): Decimal {
  const qty = dec(reorderQty);
  if (!onlyLevel) return qty;
  const gap = dec(f.min_qty ?? "0").minus(dec(f.available).plus(dec(f.on_order)));
  return gap.greaterThan(qty) ? gap : qty;
}
