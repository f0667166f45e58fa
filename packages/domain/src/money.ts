import Decimal from "decimal.js";

// Spec §9: GST 9%; minimum margin rate 0. DESIGN §2.3: half-up to cents per document.
export const TAX_RATE = "0.09";
export const MIN_MARGIN_RATE = "0";

export function roundMoney(value: Decimal.Value): string {
  return new Decimal(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
}

export function taxOn(amount: Decimal.Value, rate: Decimal.Value = TAX_RATE): string {
  return roundMoney(new Decimal(amount).times(rate));
}

export function formatMoney(value: Decimal.Value, currency = "SGD"): string {
  const n = new Decimal(value);
  const [int, frac] = n.abs().toFixed(2).split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${n.isNegative() ? "-" : ""}${currency} ${grouped}.${frac}`;
}
