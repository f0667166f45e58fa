import { brokenRules } from "@workmetrics/domain/resources/define";
import type { FieldDef, RecordRule, ResourceDef } from "@workmetrics/domain/resources/types";

// Form state ↔ wire values by field kind, and validation against the resource's own zod schema
// (STYLE: the web imports the domain's schema, never writes its own).

export type FormValues = Record<string, unknown>;
type Schema = ResourceDef["insert"];

const pad = (n: number) => String(n).padStart(2, "0");

// An instant as the form's local wall time to the minute, what the date-time picker edits.
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return `${String(d.getFullYear()).padStart(4, "0")}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

// A list field holds text, or ids when it lists references (memo.audience_role_ids).
function listValue(field: FieldDef, value: unknown): unknown[] {
  if (!Array.isArray(value)) return [];
  if (!field.reference) return value.map(String);
  return value.map((v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v));
}

export function toFormValue(field: FieldDef, value: unknown): unknown {
  switch (field.kind) {
    case "boolean":
      return Boolean(value);
    case "reference":
      return value ?? null;
    case "tags":
      return listValue(field, value);
    case "datetime":
      return typeof value === "string" ? toLocalInput(value) : "";
    case "date":
      return typeof value === "string" ? value.slice(0, 10) : "";
    default:
      return value === null || value === undefined ? "" : String(value);
  }
}

export function toFormValues(fields: readonly FieldDef[], row: Record<string, unknown> | undefined): FormValues {
  return Object.fromEntries(fields.map((f) => [f.name, toFormValue(f, row?.[f.name])]));
}

// Typed numbers lose their grouping: "1,234.50" → "1234.50".
export function normaliseNumber(text: string): string {
  return text.replace(/[\s,]/g, "");
}

// What a form value is on the wire. A blank value is left out on create (so column defaults apply) and
// clears the column (null) on edit.
export function toWireValue(field: FieldDef, value: unknown, mode: "create" | "edit"): unknown {
  const blank = mode === "create" ? undefined : null;
  if (field.kind === "boolean") return Boolean(value);
  if (field.kind === "tags") return listValue(field, value);
  if (value === null || value === undefined) return blank;
  if (typeof value !== "string") return value;
  const text = field.kind === "textarea" ? value : value.trim();
  if (text === "") return blank;
  switch (field.kind) {
    case "integer": {
      const n = Number(normaliseNumber(text));
      return Number.isFinite(n) ? n : text;
    }
    case "number":
    case "money":
    case "percent":
      return normaliseNumber(text);
    case "reference":
      return /^\d+$/.test(text) ? Number(text) : text;
    case "datetime": {
      const d = new Date(text);
      return Number.isNaN(d.getTime()) ? text : d.toISOString();
    }
    default:
      return text;
  }
}

export function toWire(
  fields: readonly FieldDef[],
  values: FormValues,
  mode: "create" | "edit",
  only?: ReadonlySet<string>,
): FormValues {
  const out: FormValues = {};
  for (const f of fields) {
    if (only && !only.has(f.name)) continue;
    const v = toWireValue(f, values[f.name], mode);
    if (v !== undefined) out[f.name] = v;
  }
  return out;
}

type Issue = { code: string; path: PropertyKey[]; message: string; expected?: string; input?: unknown };

// A value of the wrong JSON type for the schema (a decimal column declared as a number, a timestamp as a Date)
// is converted once and checked again, so the form need not know how each schema spells its columns.
function coerce(values: FormValues, issues: readonly Issue[]): FormValues | null {
  const next = { ...values };
  let changed = false;
  for (const issue of issues) {
    const key = issue.path[0];
    if (issue.code !== "invalid_type" || typeof key !== "string" || issue.path.length !== 1) continue;
    const v = next[key];
    if (issue.expected === "number" && typeof v === "string" && v !== "" && Number.isFinite(Number(v))) {
      next[key] = Number(v);
      changed = true;
    } else if (issue.expected === "string" && typeof v === "number") {
      next[key] = String(v);
      changed = true;
    } else if (issue.expected === "date" && typeof v === "string" && !Number.isNaN(Date.parse(v))) {
      next[key] = new Date(v);
      changed = true;
    }
  }
  return changed ? next : null;
}

export type Validation = { ok: true; data: FormValues } | { ok: false; errors: Record<string, string> };

// Zod's message for a value that was never given reads "Invalid input: expected string, received undefined".
const requiredMessage = (iss: { input?: unknown }) =>
  iss.input === undefined || iss.input === null ? "Required" : undefined;

export function validate(schema: Schema, values: FormValues): Validation {
  let input = values;
  for (let attempt = 0; attempt < 2; attempt++) {
    const r = schema.safeParse(input, { error: requiredMessage });
    if (r.success) return { ok: true, data: r.data };
    const issues = r.error.issues as Issue[];
    const retry = attempt === 0 ? coerce(input, issues) : null;
    if (retry) {
      input = retry;
      continue;
    }
    const errors: Record<string, string> = {};
    for (const issue of issues) {
      const key = issue.path.length ? String(issue.path[0]) : "";
      if (!(key in errors)) errors[key] = issue.message;
    }
    return { ok: false, errors };
  }
  return { ok: false, errors: { "": "Invalid values" } };
}

// The resource's cross-field rules judged on the whole record, added to the schema's errors: a rule whose fields
// already have a message is not judged, and a field keeps its first message.
export function ruleErrors(
  rules: readonly RecordRule[] | undefined,
  record: FormValues,
  errors: Record<string, string>,
): Record<string, string> {
  const out = { ...errors };
  const judged = rules?.filter((r) => !r.fields.some((name) => name in errors));
  for (const { field, message } of brokenRules(judged, record)) if (!(field in out)) out[field] = message;
  return out;
}
