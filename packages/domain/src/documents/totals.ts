import type Decimal from "decimal.js";
import { TAX_RATE } from "../money.ts";
import { Dec, type DecimalInput, DocumentError, dec, money, sum } from "./decimal.ts";

// The one totals function (DESIGN §2.3, issue 10 §1): the server recomputes with it on every save and transition
// (client totals are never trusted) and the web shows the same figures as the clerk types.

// DOCUMENTS.md §3: SR standard-rated 9%, ZR zero-rated, ES exempt, OS out of scope. Purchase codes (TX, IM, BL …)
// come with purchasing.
export const TAX_CODES = ["SR", "ZR", "ES", "OS"] as const;
export type TaxCode = (typeof TAX_CODES)[number];
export type TaxRates = Readonly<Record<TaxCode, string>>;
export const TAX_RATES: TaxRates = { SR: TAX_RATE, ZR: "0", ES: "0", OS: "0" };

export type TotalsLine = {
  qty: string;
  unit_price: string;
  discount_percent?: string | null; // 0–100, null or absent: none
  tax_code: TaxCode;
};

// A document discount is either a percent of the subtotal or an amount in the document's currency (ERPNext's
// additional_discount_percentage / discount_amount; a clerk thinks in both). An amount is typed positive and shrinks
// the document whatever its sign, so "10" off a credit note of −100 gives −90.
export type DocumentDiscount = { percent: string } | { amount: string };

export type TotalsInput<L extends TotalsLine> = { lines: readonly L[]; discount?: DocumentDiscount | null };

// net_amount is the line total less its share of the document discount: what tax and the sales account see.
export type LineTotals = { line_total: string; net_amount: string };

// One row per tax code used, in TAX_CODES order: the tax invoice's summary and the GST F5 boxes (DOCUMENTS.md §3:
// SR → boxes 1 and 6, ZR → 2, ES → 3, OS not reported).
export type TaxBreakdown = { tax_code: TaxCode; rate: string; net: string; tax: string };

export type Totals<L extends TotalsLine = TotalsLine> = {
  lines: (L & LineTotals)[];
  subtotal: string; // Σ line_total
  discount_amount: string; // the document discount in money, signed like the subtotal
  net_total: string; // subtotal − discount_amount = Σ taxes[].net
  tax_total: string; // Σ taxes[].tax
  total: string; // net_total + tax_total
  taxes: TaxBreakdown[];
};

const HUNDRED = new Dec(100);

function percent(value: string | null | undefined, what: string): Decimal {
  const p = value == null || value.trim() === "" ? new Dec(0) : dec(value, what);
  if (p.isNegative() || p.greaterThan(HUNDRED)) throw new DocumentError(`${what} must be between 0 and 100%`);
  return p;
}

// qty × unit price less the line discount, rounded half-up to cents once (issue 10 §1).
export function lineTotal(line: TotalsLine, index = 0): string {
  const n = index + 1;
  const qty = dec(line.qty, `The quantity on line ${n}`);
  const price = dec(line.unit_price, `The unit price on line ${n}`);
  const off = percent(line.discount_percent, `The discount on line ${n}`);
  return money(qty.times(price).times(HUNDRED.minus(off)).dividedBy(HUNDRED));
}

function discountAmount(subtotal: Decimal, discount: DocumentDiscount | null | undefined): Decimal {
  if (!discount) return new Dec(0);
  if ("percent" in discount) {
    return dec(money(subtotal.times(percent(discount.percent, "The discount")).dividedBy(HUNDRED)));
  }
  const amount = dec(money(dec(discount.amount, "The discount")));
  if (amount.isNegative()) throw new DocumentError("The discount cannot be negative");
  if (amount.isZero()) return amount;
  if (amount.greaterThan(subtotal.abs())) {
    throw new DocumentError(`The discount cannot be more than the subtotal of ${money(subtotal.abs())}`);
  }
  return subtotal.isNegative() ? amount.negated() : amount;
}

// Spread the document discount over the lines in proportion to their totals (ERPNext's distributed discount), each
// share rounded to cents; the cent or two left by rounding goes to the largest line, so the shares add up exactly.
function spread(totals: readonly Decimal[], subtotal: Decimal, discount: Decimal): Decimal[] {
  if (discount.isZero()) return totals.map(() => new Dec(0));
  const shares = totals.map((t) => dec(money(discount.times(t).dividedBy(subtotal))));
  const left = discount.minus(sum(shares));
  if (!left.isZero()) {
    let largest = 0;
    totals.forEach((t, i) => {
      if (t.abs().greaterThan(totals[largest].abs())) largest = i;
    });
    shares[largest] = shares[largest].plus(left);
  }
  return shares;
}

export function computeTotals<L extends TotalsLine>(input: TotalsInput<L>, rates: TaxRates = TAX_RATES): Totals<L> {
  input.lines.forEach((line, i) => {
    if (!TAX_CODES.includes(line.tax_code)) {
      throw new DocumentError(`Line ${i + 1} has an unknown tax code "${line.tax_code}"`);
    }
  });
  const lineTotals = input.lines.map((line, i) => dec(lineTotal(line, i)));
  const subtotal = sum(lineTotals);
  const discount = discountAmount(subtotal, input.discount);
  const shares = spread(lineTotals, subtotal, discount);
  const nets = lineTotals.map((t, i) => t.minus(shares[i]));

  // GST per tax code on the amount after discounts, rounded half-up to cents per document (DOCUMENTS.md §3),
  // not per line: three SR lines of 0.05 owe 0.01, where rounding each line would owe nothing.
  const taxes: TaxBreakdown[] = [];
  for (const code of TAX_CODES) {
    const inCode = nets.filter((_, i) => input.lines[i].tax_code === code);
    if (inCode.length === 0) continue;
    const net = sum(inCode);
    const rate = dec(rates[code], `The ${code} tax rate`);
    taxes.push({ tax_code: code, rate: rate.toFixed(), net: money(net), tax: money(net.times(rate)) });
  }
  const netTotal = subtotal.minus(discount);
  const taxTotal = sum(taxes.map((t) => t.tax));
  return {
    lines: input.lines.map((line, i) => ({ ...line, line_total: money(lineTotals[i]), net_amount: money(nets[i]) })),
    subtotal: money(subtotal),
    discount_amount: money(discount),
    net_total: money(netTotal),
    tax_total: money(taxTotal),
    total: money(netTotal.plus(taxTotal)),
    taxes,
  };
}

// ---- currency --------------------------------------------------------------------------------------------------

// rate: base-currency units for one unit of the document's currency (USD → SGD 1.35), from the workspace's
// currency factors or a project's locked rate (issue 10 §1).
export function toBase(amount: DecimalInput, rate: DecimalInput): string {
  const r = dec(rate, "The exchange rate");
  if (!r.greaterThan(0)) throw new DocumentError("The exchange rate must be more than 0");
  return money(dec(amount).times(r));
}

export type BaseTotals = {
  base_subtotal: string;
  base_discount_amount: string;
  base_net_total: string;
  base_tax_total: string;
  base_total: string;
  base_taxes: { tax_code: TaxCode; net: string; tax: string }[];
};

// The books post base amounts, so they must add up the way the document does: each tax code's net and tax are
// converted (IRAS reports GST in SGD), the rest is summed from them rather than converted on its own; converting
// every figure separately can leave Dr Debtors a cent away from Cr Sales + Cr GST.
export function toBaseTotals(totals: Totals, rate: DecimalInput): BaseTotals {
  const base_taxes = totals.taxes.map((t) => ({
    tax_code: t.tax_code,
    net: toBase(t.net, rate),
    tax: toBase(t.tax, rate),
  }));
  const net = sum(base_taxes.map((t) => t.net));
  const tax = sum(base_taxes.map((t) => t.tax));
  const discount = dec(toBase(totals.discount_amount, rate));
  return {
    base_subtotal: money(net.plus(discount)),
    base_discount_amount: money(discount),
    base_net_total: money(net),
    base_tax_total: money(tax),
    base_total: money(net.plus(tax)),
    base_taxes,
  };
}
