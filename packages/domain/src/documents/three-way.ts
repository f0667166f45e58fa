import type Decimal from "decimal.js";
import { type DecimalInput, dec, money, plain } from "./decimal.ts";

// Issue 11, the three-way check (DOCUMENTS.md "Three-way check", Odoo's account_3way_match with tolerances): for every
// supplier invoice line, what was ordered, received and invoiced, and the order's price against the invoice's. A line
// passes, or is an exception with its reason in words; the invoice is matched when every line passes. Quantities
// are compared on the order line as a whole (this invoice and the ones before it), prices net of the line discount
// in base currency. Tolerances: % over on quantity and on price, and a cap in money on either difference — a
// difference passes when it is within its % and, if a cap is set, its value is within the cap (the stricter wins).

export type MatchTolerances = {
  qty_percent: DecimalInput;
  price_percent: DecimalInput;
  amount?: DecimalInput | null; // null: no cap
};

export type MatchLine = {
  qty: DecimalInput; // invoiced on this line
  unit_price: DecimalInput; // net unit price, base currency
  po: {
    qty: DecimalInput; // ordered
    unit_price: DecimalInput; // net unit price, base currency
    received: DecimalInput; // accepted on receipts, all of them
    billed_before: DecimalInput; // on other submitted supplier invoices of this order line
  } | null;
};

// An earlier invoice of the same supplier whose number reads the same once spaces, dashes and case are ignored
// ("INV 778" after "inv-778"); an exact repeat is refused before this (supplier_invoice_number is unique).
export type LikelyDuplicate = { number: string | null; supplier_invoice_number: string };

export type MatchStatus = "matched" | "exception" | "released";
export type MatchResult = { status: "matched" | "exception"; exceptions: (string | null)[] };

// The supplier's invoice number as compared for likely duplicates: letters and digits only, upper case. The server's
// query spells the same rule in SQL (upper(regexp_replace(…, '[^A-Za-z0-9]', '', 'g'))).
export const supplierNumberKey = (text: string): string => text.replace(/[^A-Za-z0-9]/g, "").toUpperCase();

const percentOf = (base: Decimal, percent: DecimalInput) => base.times(dec(percent)).dividedBy(100);

// Whether `over` (a positive difference worth `value` in money) passes: within `percent` of `base` and the cap.
function within(over: Decimal, base: Decimal, percent: DecimalInput, value: Decimal, cap?: DecimalInput | null) {
  if (over.greaterThan(percentOf(base, percent))) return false;
  return cap == null || cap === "" || !value.greaterThan(dec(cap));
}

const tolerated = (percent: DecimalInput) => (dec(percent).isZero() ? "" : ` (tolerance ${plain(percent)}%)`);

export function checkLine(line: MatchLine, t: MatchTolerances): string[] {
  const po = line.po;
  if (!po) return ["No purchase order line"];
  const reasons: string[] = [];
  const price = dec(line.unit_price);
  const poPrice = dec(po.unit_price);
  const received = dec(po.received);
  const invoiced = dec(po.billed_before).plus(dec(line.qty));
  const over = invoiced.minus(received);
  if (over.greaterThan(0) && !within(over, received, t.qty_percent, over.times(poPrice), t.amount)) {
    reasons.push(
      received.isZero()
        ? `Invoiced ${plain(invoiced)} but nothing is received yet`
        : `Invoiced ${plain(invoiced)} but received ${plain(received)}${tolerated(t.qty_percent)}`,
    );
  }
  const dearer = price.minus(poPrice);
  if (dearer.greaterThan(0) && !within(dearer, poPrice, t.price_percent, dearer.times(dec(line.qty)), t.amount)) {
    reasons.push(`Price ${money(price)} is above the order's ${money(poPrice)}${tolerated(t.price_percent)}`);
  }
  return reasons;
}

export function threeWayCheck(
  lines: readonly MatchLine[],
  tolerances: MatchTolerances,
  duplicate: LikelyDuplicate | null = null,
): MatchResult {
  const same = duplicate
    ? `Supplier's number looks like ${duplicate.supplier_invoice_number} on ${duplicate.number ?? "a draft supplier invoice"}`
    : null;
  const exceptions = lines.map((l) => {
    const reasons = checkLine(l, tolerances);
    if (same) reasons.push(same);
    return reasons.length ? reasons.join("; ") : null;
  });
  return { status: exceptions.some((e) => e != null) ? "exception" : "matched", exceptions };
}

// Supplier payments pay an invoice only once it is released to pay: it passed the check or someone allowed to
// override released it (issue 11).
export const releasedToPay = (matchStatus: string | null | undefined): boolean =>
  matchStatus === "matched" || matchStatus === "released";
