import type { FieldDef, FieldKind } from "./types.ts";

// Small builders so a resource lists its fields in one line each (STYLE: spread, not restated).
type Options = Partial<Omit<FieldDef, "name" | "label" | "kind">>;

const of =
  (kind: FieldKind) =>
  (name: string, label: string, opts: Options = {}): FieldDef => ({ name, label, kind, ...opts });

// The most characters a text field takes unless it says otherwise (FieldDef.maxLength); forms show the limit and
// the wire schemas refuse more. Codes and names are shorter: f.code, f.name.
const TEXT_LIMIT: Partial<Record<FieldKind, number>> = {
  text: 500,
  textarea: 10_000,
  email: 254, // RFC 5321's longest address
  phone: 40,
  url: 2_048,
};
export const CODE_LENGTH = 64;
export const NAME_LENGTH = 200;

export function textLimit(field: Pick<FieldDef, "kind" | "maxLength">): number | undefined {
  return field.maxLength ?? TEXT_LIMIT[field.kind];
}

const sized =
  (maxLength: number) =>
  (name: string, label: string, opts: Options = {}): FieldDef => ({ name, label, kind: "text", maxLength, ...opts });

export const f = {
  text: of("text"),
  code: sized(CODE_LENGTH), // SKUs, codes, slugs
  name: sized(NAME_LENGTH), // names and titles
  textarea: of("textarea"),
  email: of("email"),
  phone: of("phone"),
  url: of("url"),
  integer: of("integer"),
  number: of("number"),
  money: of("money"),
  percent: of("percent"),
  boolean: of("boolean"),
  date: of("date"),
  datetime: of("datetime"),
  tags: of("tags"),
  image: of("image"),
  enum: (name: string, label: string, options: readonly string[], opts: Options = {}): FieldDef => ({
    name,
    label,
    kind: "enum",
    options,
    ...opts,
  }),
  status: (name: string, label: string, options: readonly string[], opts: Options = {}): FieldDef => ({
    name,
    label,
    kind: "status",
    options,
    ...opts,
  }),
  ref: (name: string, label: string, resource: string, display: string, opts: Options = {}): FieldDef => ({
    name,
    label,
    kind: "reference",
    reference: { resource, display },
    ...opts,
  }),
};

export const idField = (kind: "integer" | "text" = "integer"): FieldDef => ({
  name: "id",
  label: "ID",
  kind,
  readOnly: true,
  form: false,
  width: 90,
});

export const auditFields: FieldDef[] = [
  { name: "created_at", label: "Created", kind: "datetime", readOnly: true, form: false },
  { name: "updated_at", label: "Updated", kind: "datetime", readOnly: true, form: false },
];

// What we paid for goods (a product's cost, a line's or a stock move's unit cost) is read by this permission beyond
// the resource's own read: a supplier's user, a driver and the POS read products and documents without it.
export const COST_PERMISSION = "product_cost.read";
