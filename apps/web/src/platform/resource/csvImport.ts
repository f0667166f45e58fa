import type { FieldDef, ResourceDef } from "@workmetrics/domain/resources/types";
import { quoteValue } from "../data-access/filters.ts";
import type { DataProvider, Id } from "../data-access/provider.ts";
import { type FormValues, toWire, validate } from "../fields/convert.ts";

// CSV import, the browser half (issue 5 item 4): map columns to fields, turn cells into wire values, check each
// row against the resource's insert schema for the preview. The server checks again and imports atomically.

export type Mapping = (string | null)[]; // per CSV column: the field it fills, or null to ignore it

// "Payment terms (days)" ~ "payment_terms_days" ~ "PAYMENT TERMS DAYS"
export const normaliseHeader = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

export function autoMap(headers: readonly string[], fields: readonly FieldDef[]): Mapping {
  const used = new Set<string>();
  return headers.map((h) => {
    const key = normaliseHeader(h);
    const field = fields.find(
      (f) => !used.has(f.name) && key !== "" && (normaliseHeader(f.name) === key || normaliseHeader(f.label) === key),
    );
    if (!field) return null;
    used.add(field.name);
    return field.name;
  });
}

const TRUE = new Set(["true", "yes", "y", "1", "on", "x"]);
const FALSE = new Set(["false", "no", "n", "0", "off", ""]);

// A cell as the value a form input would hold for that field kind.
export function cellToForm(field: FieldDef, text: string): unknown {
  const t = text.trim();
  switch (field.kind) {
    case "boolean":
      return TRUE.has(t.toLowerCase()) ? true : FALSE.has(t.toLowerCase()) ? false : t;
    case "tags":
      return t
        .split(/[,;\n]/)
        .map((s) => s.trim())
        .filter(Boolean);
    case "reference":
      return t === "" ? null : t;
    default:
      return t;
  }
}

// values: as a form would hold them (for the preview's checks); cells: the text sent to the server, which reads
// CSV cells itself (csv_import coerces by column type and resolves labels).
export type ImportRow = { line: number; values: FormValues; cells: Record<string, string> };

// The records of a parsed file (first row = headers), numbered by their line as a spreadsheet shows them.
export function toImportRows(rows: readonly string[][], mapping: Mapping, fields: readonly FieldDef[]): ImportRow[] {
  const byName = new Map(fields.map((f) => [f.name, f]));
  return rows.slice(1).map((cells, i) => {
    const values: FormValues = {};
    const text: Record<string, string> = {};
    mapping.forEach((name, col) => {
      const field = name ? byName.get(name) : undefined;
      if (!field) return;
      values[field.name] = cellToForm(field, cells[col] ?? "");
      text[field.name] = cells[col] ?? "";
    });
    return { line: i + 2, values, cells: text };
  });
}

// Reference cells name the target row by its label ("Fasteners") or give its id; labels become ids here.
export type References = Map<string, Map<string, Id>>; // field → lower-cased label → id

export async function resolveReferences(
  data: DataProvider,
  rows: readonly ImportRow[],
  fields: readonly FieldDef[],
): Promise<References> {
  const out: References = new Map();
  for (const f of fields) {
    if (f.kind !== "reference" || !f.reference) continue;
    const labels = [
      ...new Set(
        rows.map((r) => r.values[f.name]).filter((v): v is string => typeof v === "string" && !/^\d+$/.test(v)),
      ),
    ];
    const found = new Map<string, Id>();
    for (let i = 0; i < labels.length; i += 100) {
      const chunk = labels.slice(i, i + 100);
      const page = await data.getList(f.reference.resource, {
        select: `id,${f.reference.display}`,
        filters: [{ column: f.reference.display, op: "in", value: `(${chunk.map(quoteValue).join(",")})` }],
      });
      for (const r of page.data) found.set(String(r[f.reference.display]).toLowerCase(), r.id);
    }
    out.set(f.name, found);
  }
  return out;
}

export type RowCheck = {
  line: number;
  values: FormValues;
  cells: Record<string, string>;
  errors: Record<string, string>;
};

// One record's wire values, with labels swapped for ids, checked against the insert schema.
export function checkRow(def: ResourceDef, fields: readonly FieldDef[], row: ImportRow, refs: References): RowCheck {
  const errors: Record<string, string> = {};
  const form: FormValues = { ...row.values };
  for (const f of fields) {
    const v = form[f.name];
    if (f.kind !== "reference" || typeof v !== "string" || /^\d+$/.test(v)) continue;
    const id = refs.get(f.name)?.get(v.toLowerCase());
    if (id === undefined) errors[f.name] = `No ${f.label.toLowerCase()} named "${v}"`;
    else form[f.name] = id;
  }
  const wire = toWire(fields, form, "create", new Set(Object.keys(form)));
  const result = validate(def.insert, wire);
  if (!result.ok) for (const [k, m] of Object.entries(result.errors)) errors[k] ??= m;
  return { line: row.line, values: wire, cells: row.cells, errors };
}

// Fields the schema needs that no column fills.
export function missingRequired(fields: readonly FieldDef[], mapping: Mapping): FieldDef[] {
  const mapped = new Set(mapping.filter(Boolean));
  return fields.filter((f) => f.required && !mapped.has(f.name));
}
