import { DocumentError } from "@workmetrics/domain/documents/decimal";
import { computeTotals, type TaxCode, type Totals } from "@workmetrics/domain/documents/totals";
import type { FieldDef } from "@workmetrics/domain/resources/types";

// The lines grid's model, pure: a line as the clerk edits it (text as typed), the totals panel's figures from the
// same domain function the server prices with (computeTotals), and what document_save is sent.

export type LineDraft = {
  key: string; // stable across edits, for React and focus
  product_id: number | null;
  product_label: string | null;
  service_id: number | null;
  sku: string;
  description: string;
  unit: string;
  qty: string;
  unit_price: string;
  discount_percent: string;
  tax_code: TaxCode;
  source_line_id: number | null;
  discount_form_id?: number | null; // the supplier discount form that priced it (read only: a purchase order's line)
  // A buying line's price and discount as the server gave them when the product was picked (purchase_prices): shown
  // at once, and left to the server at save while the clerk has not typed over them (the save prices the same way
  // and names the supplier discount that priced it).
  auto_price?: string;
  auto_discount?: string;
  extra: Record<string, unknown>; // the type's own writable line fields (a delivery line's location)
};

let seq = 0;
export const newKey = () => `l${++seq}`;

export const emptyLine = (): LineDraft => ({
  key: newKey(),
  product_id: null,
  product_label: null,
  service_id: null,
  sku: "",
  description: "",
  unit: "",
  qty: "1",
  unit_price: "",
  discount_percent: "",
  tax_code: "SR",
  source_line_id: null,
  extra: {},
});

const text = (v: unknown) => (v === null || v === undefined ? "" : String(v));
// "2.000" → "2", "15.5000" → "15.5": what a clerk would have typed.
export const trimZeros = (v: unknown) => {
  const s = text(v);
  return /^-?\d+\.\d*$/.test(s) ? s.replace(/\.?0+$/, "") : s;
};

export function lineFromRow(row: Record<string, unknown>, extraFields: readonly FieldDef[]): LineDraft {
  return {
    key: newKey(),
    product_id: row.product_id == null ? null : Number(row.product_id),
    product_label: text(row.description) || text(row.sku) || null,
    service_id: row.service_id == null ? null : Number(row.service_id),
    sku: text(row.sku),
    description: text(row.description),
    unit: text(row.unit),
    qty: trimZeros(row.qty),
    unit_price: trimZeros(row.unit_price),
    discount_percent: trimZeros(row.discount_percent) === "0" ? "" : trimZeros(row.discount_percent),
    tax_code: (text(row.tax_code) || "SR") as TaxCode,
    source_line_id: row.source_line_id == null ? null : Number(row.source_line_id),
    discount_form_id: row.supplier_discount_form_id == null ? null : Number(row.supplier_discount_form_id),
    extra: Object.fromEntries(extraFields.map((f) => [f.name, row[f.name] ?? null])),
  };
}

// A line with nothing chosen or typed is left out of the save (the grid always offers an empty row to type into).
export const isBlank = (l: LineDraft) =>
  l.product_id === null && l.service_id === null && !l.description.trim() && !l.unit_price.trim();

export function lineToSave(l: LineDraft): Record<string, unknown> {
  const out: Record<string, unknown> = {
    product_id: l.product_id,
    service_id: l.service_id,
    sku: l.sku || null,
    description: l.description || null,
    unit: l.unit || null,
    qty: l.qty.trim(),
    tax_code: l.tax_code,
    discount_percent: l.discount_percent.trim() || null,
    ...l.extra,
  };
  // No price given (or the one the server picked): the server takes the product's, or a purchase's price.
  const auto = l.auto_price !== undefined && l.unit_price.trim() === l.auto_price;
  if (l.unit_price.trim() && !auto) out.unit_price = l.unit_price.trim();
  if (auto && (l.discount_percent.trim() || "0") === (l.auto_discount ?? "0")) out.discount_percent = null;
  if (l.source_line_id !== null) out.source_line_id = l.source_line_id;
  // What is not given is left out: the server takes its default (no discount, no service).
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== null && v !== undefined));
}

export type LiveTotals = { totals: Totals | null; error: string | null };

// The totals as the server will compute them; a value that is not a number yet names its line.
export function liveTotals(lines: readonly LineDraft[], discountPercent: string): LiveTotals {
  const counted = lines.filter((l) => !isBlank(l));
  try {
    const totals = computeTotals({
      lines: counted.map((l) => ({
        qty: l.qty.trim() || "0",
        unit_price: l.unit_price.trim() || "0",
        discount_percent: l.discount_percent.trim() || null,
        tax_code: l.tax_code,
      })),
      discount: discountPercent.trim() ? { percent: discountPercent.trim() } : null,
    });
    return { totals, error: null };
  } catch (err) {
    if (err instanceof DocumentError) return { totals: null, error: err.message };
    throw err;
  }
}

// A line's own field, or the header's where the line leaves it empty (a delivery order's lines leave from the
// header's location unless they name another).
export function lineValue(l: LineDraft, name: string, header?: Record<string, unknown>): unknown {
  const own = l.extra[name];
  if (own !== null && own !== undefined && own !== "") return own;
  return header?.[name] ?? null;
}
