import type { FieldDef, ResourceDef } from "@workmetrics/domain/resources/types";
import { escapeLike, quoteValue } from "../data-access/filters.ts";
import type { DataProvider, Id, Row } from "../data-access/provider.ts";
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

// Clear yes/no values only, as the server reads them; an empty cell leaves the default.
const TRUE = new Set(["true", "yes", "y", "1"]);
const FALSE = new Set(["false", "no", "n", "0"]);

// A cell as the value a form input would hold for that field kind; a boolean nobody can read stays text.
export function cellToForm(field: FieldDef, text: string): unknown {
  const t = text.trim();
  switch (field.kind) {
    case "boolean":
      return t === "" ? undefined : TRUE.has(t.toLowerCase()) ? true : FALSE.has(t.toLowerCase()) ? false : t;
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

// Reference cells name the target row by its label ("Fasteners", any case) or give its id; labels become ids here.
export type References = Map<string, Map<string, Id>>; // field → lower-cased label or id as typed → id

const CHUNK = 100; // values per request: the query string stays a few KB
const isId = (v: string) => /^\d+$/.test(v);

// Rows of `resource` whose `column` is one of `values` (exact, or case-insensitive with `ilike`), CHUNK at a time.
async function lookup(
  data: DataProvider,
  resource: string,
  select: string,
  column: string,
  values: readonly string[],
  op: "in" | "ilike",
) {
  const out: Row[] = [];
  for (let i = 0; i < values.length; i += CHUNK) {
    const chunk = values.slice(i, i + CHUNK);
    const filter =
      op === "in"
        ? { column, op: "in", value: `(${chunk.map(quoteValue).join(",")})` }
        : { column, op: "ilike(any)", value: `{${chunk.map((v) => quoteValue(escapeLike(v))).join(",")}}` };
    out.push(...(await data.getList(resource, { select, filters: [filter] })).data);
  }
  return out;
}

export async function resolveReferences(
  data: DataProvider,
  rows: readonly ImportRow[],
  fields: readonly FieldDef[],
): Promise<References> {
  const out: References = new Map();
  for (const f of fields) {
    if (f.kind !== "reference" || !f.reference) continue;
    const { resource, display } = f.reference;
    const cells = [
      ...new Set(rows.map((r) => r.values[f.name]).filter((v): v is string => typeof v === "string" && v !== "")),
    ];
    const found = new Map<string, Id>();
    const labels = cells.filter((v) => !isId(v));
    for (const r of await lookup(data, resource, `id,${display}`, display, labels, "ilike")) {
      found.set(String(r[display]).toLowerCase(), r.id);
    }
    for (const r of await lookup(data, resource, "id", "id", cells.filter(isId), "in")) found.set(String(r.id), r.id);
    out.set(f.name, found);
  }
  return out;
}

// The file's natural keys (SKU, code …) that a record of the workspace already has.
export async function existingKeys(
  data: DataProvider,
  def: ResourceDef,
  rows: readonly ImportRow[],
): Promise<Set<string>> {
  const key = def.naturalKey;
  if (!key) return new Set();
  const values = [
    ...new Set(rows.map((r) => r.values[key]).filter((v): v is string => typeof v === "string" && v !== "")),
  ];
  const found = await lookup(data, def.name, key, key, values, "in");
  return new Set(found.map((r) => String(r[key])));
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
  const sent = new Set<string>();
  for (const f of fields) {
    const v = form[f.name];
    if (!(f.name in form) || (f.kind === "boolean" && v === undefined)) continue;
    if (f.kind === "boolean" && typeof v === "string") {
      errors[f.name] = `${f.label} must be yes or no`;
      continue;
    }
    if (f.kind === "reference" && typeof v === "string") {
      const id = refs.get(f.name)?.get(v.toLowerCase());
      if (id === undefined) {
        errors[f.name] = isId(v) ? `${f.label} #${v} does not exist` : `${f.label} '${v}' does not exist`;
        continue;
      }
      form[f.name] = id;
    }
    sent.add(f.name);
  }
  const wire = toWire(fields, form, "create", sent);
  const result = validate(def.insert, wire);
  if (!result.ok) for (const [k, m] of Object.entries(result.errors)) errors[k] ??= m;
  return { line: row.line, values: wire, cells: row.cells, errors };
}

// The natural key's problems, which depend on "Update existing": a key another record has, a key an earlier line
// repeats. With updates ticked both are fine (the server updates the record; the later line wins).
export function checkKeys(
  checks: readonly RowCheck[],
  def: ResourceDef,
  fields: readonly FieldDef[],
  existing: ReadonlySet<string>,
  upsert: { offered: boolean; ticked: boolean },
): RowCheck[] {
  const key = def.naturalKey;
  if (!key || upsert.ticked) return [...checks];
  const label = fields.find((f) => f.name === key)?.label ?? key;
  const first = new Map<string, number>();
  return checks.map((c) => {
    const v = c.cells[key]?.trim();
    if (!v || c.errors[key]) return c;
    const at = first.get(v);
    if (at === undefined) first.set(v, c.line);
    const message =
      at !== undefined
        ? `${label} ${v} is also on line ${at}`
        : existing.has(v)
          ? `${label} ${v} already exists${upsert.offered ? ' — tick "Update existing" to update it' : ""}`
          : null;
    return message ? { ...c, errors: { ...c.errors, [key]: message } } : c;
  });
}

// Fields the schema needs that no column fills.
export function missingRequired(fields: readonly FieldDef[], mapping: Mapping): FieldDef[] {
  const mapped = new Set(mapping.filter(Boolean));
  return fields.filter((f) => f.required && !mapped.has(f.name));
}
