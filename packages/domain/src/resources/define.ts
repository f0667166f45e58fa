import { type Column, getTableColumns } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { createSchemaFactory } from "drizzle-zod";
import { z } from "zod";
import { DATE_RANGE } from "../brand.ts";
import { isUen, normalizeUen, UEN_EXAMPLES } from "../uen.ts";
import { textLimit } from "./fields.ts";
import type { CheckMessage, FieldDef, RecordRule, ResourceDef } from "./types.ts";

// DESIGN §2.3: one definition per resource. The wire schemas are derived from the Drizzle table with drizzle-zod
// (never re-declared): keys renamed to the column names clients send, narrowed to the writable fields, and refined
// by field kind (required text not blank, e-mail shape, decimal strings for numeric).

export type ResourceInput = Omit<ResourceDef, "insert" | "update">;

// Server-controlled columns: never in a client's body (DESIGN §2.2, issue 4: a body cannot forge them).
export const SERVER_COLUMNS = new Set(["workspace_id", "id", "created_at", "updated_at"]);

const DECIMAL = /^-?\d{1,16}(\.\d{1,6})?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const CURRENCY = /^[A-Z]{3}$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const WEB_ADDRESS = /^https?:\/\/[^\s/?#]+\.[^\s/?#]+([/?#]\S*)?$/i;
const SITE_PATH = /^\/(?!\/)\S*$/;
// DESIGN §2.4: dates are picked between 1900-01-01 and 2099-12-31; timestamps are held to the same days in UTC.
const FIRST_INSTANT = new Date(`${DATE_RANGE.min}T00:00:00.000Z`);
const LAST_INSTANT = new Date(`${DATE_RANGE.max}T23:59:59.999Z`);

// A real calendar day (not 2026-02-30), read without Date's two-digit-year quirk.
export function isCalendarDay(v: string): boolean {
  const m = DAY.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(Date.UTC(2000, mo - 1, d));
  day.setUTCFullYear(y);
  return day.getUTCFullYear() === y && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d;
}

const outOfRange = (label: string) =>
  `${label} must be between ${DATE_RANGE.min.slice(0, 4)} and ${DATE_RANGE.max.slice(0, 4)}`;

// JSON clients often send money as a number; it is kept as the decimal string the database stores.
const numberToString = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? String(v) : v);

type Refine = (s: z.ZodType) => z.ZodType;

const decimals = (v: string) => v.split(".")[1]?.length ?? 0;

// An http(s) address a browser can open: a host with a dot, no spaces.
const isWebAddress = (v: string) => WEB_ADDRESS.test(v);

function refinement(column: Column, field: FieldDef | undefined): Refine | undefined {
  const label = field?.label ?? column.name;
  if (column.columnType === "PgNumeric") {
    const { min, max } = field ?? {};
    // The column's scale: 19.999 is refused on a money column, not rounded to 20.00 by the database.
    const scale = (column as Column & { scale?: number }).scale;
    return (s) =>
      z.preprocess(
        numberToString,
        (s as z.ZodString)
          .regex(DECIMAL, `${label} must be a number`)
          .refine(
            (v) => scale === undefined || !DECIMAL.test(v) || decimals(v) <= scale,
            `${label} can have at most ${scale} decimals`,
          )
          // Only numbers are compared: a value that is not one already has its message above.
          .refine(
            (v) => min === undefined || !DECIMAL.test(v) || Number(v) >= min,
            `${label} cannot be less than ${min}`,
          )
          .refine(
            (v) => max === undefined || !DECIMAL.test(v) || Number(v) <= max,
            `${label} cannot be more than ${max}`,
          ),
      );
  }
  if (column.dataType === "number" && (field?.min !== undefined || field?.max !== undefined)) {
    const { min, max } = field ?? {};
    return (s) =>
      (s as z.ZodNumber)
        .refine((v) => min === undefined || v >= min, `${label} cannot be less than ${min}`)
        .refine((v) => max === undefined || v <= max, `${label} cannot be more than ${max}`);
  }
  if (column.columnType === "PgTimestamp") {
    return () =>
      z.coerce
        .date({ error: `${label} must be a valid date and time` })
        .min(FIRST_INSTANT, outOfRange(label))
        .max(LAST_INSTANT, outOfRange(label));
  }
  if (column.dataType !== "string" || column.columnType === "PgUUID") return undefined;
  const enumValues = "enumValues" in column && Array.isArray(column.enumValues) ? column.enumValues : [];
  if (enumValues.length) return undefined; // drizzle-zod already made it a z.enum
  const options = field?.options;
  if (options) {
    const message = `Choose one of: ${options.join(", ")}`;
    return (s) => (s as z.ZodString).refine((v) => options.includes(v), message);
  }
  if (column.columnType === "PgDateString") {
    return (s) =>
      (s as z.ZodString)
        .refine(isCalendarDay, `${label} must be a valid date`)
        // Only real days are compared: any other value already has its message above.
        .refine((v) => !isCalendarDay(v) || (v >= DATE_RANGE.min && v <= DATE_RANGE.max), outOfRange(label));
  }
  const checks: Refine[] = [];
  const limit = field ? textLimit(field) : undefined;
  if (limit !== undefined) {
    checks.push((s) => (s as z.ZodString).max(limit, `${label} must be at most ${limit} characters`));
  }
  if (field?.kind === "url") {
    const sitePath = field.sitePath;
    const message = sitePath
      ? `${label} must be a page of this site (/…) or a web address starting with http:// or https://`
      : `${label} must be a web address starting with http:// or https://`;
    checks.push((s) => (s as z.ZodString).refine((v) => isWebAddress(v) || (sitePath && SITE_PATH.test(v)), message));
  }
  if (field?.kind === "email") checks.push((s) => (s as z.ZodString).regex(EMAIL, "Enter a valid e-mail address"));
  if (field?.format === "uen") {
    const message = `${label} must be a Singapore UEN such as ${UEN_EXAMPLES}`;
    checks.push((s) => (s as z.ZodString).refine((v) => v === "" || isUen(v), message));
  }
  if (column.name === "currency" || column.name === "base_currency") {
    checks.push((s) => (s as z.ZodString).regex(CURRENCY, "Use a three-letter currency code such as SGD"));
  }
  if (column.notNull && !column.hasDefault) {
    checks.push((s) => (s as z.ZodString).trim().min(1, `${label} is required`));
  }
  if (!checks.length) return undefined;
  const checked: Refine = (s) => checks.reduce((acc, f) => f(acc), s);
  // A UEN typed in lower case or with spaces around is taken, and kept as normalizeUen writes it.
  if (field?.format === "uen")
    return (s) => z.preprocess((v) => (typeof v === "string" ? normalizeUen(v) : v), checked(s));
  return checked;
}

const { createInsertSchema, createUpdateSchema } = createSchemaFactory({ coerce: { date: true } });

const given = (v: unknown) => v !== undefined && v !== null && v !== "";

// The rules a record breaks, judged only on the fields that are given: a partial patch is checked where it can be.
export function brokenRules(
  rules: readonly RecordRule[] | undefined,
  values: Readonly<Record<string, unknown>>,
): { field: string; message: string }[] {
  return (rules ?? [])
    .filter((r) => r.fields.every((name) => given(values[name])) && !r.check(values))
    .map(({ field, message }) => ({ field, message }));
}

function withRules(
  schema: z.ZodObject<Record<string, z.ZodType>>,
  rules: readonly RecordRule[] | undefined,
): z.ZodObject<Record<string, z.ZodType>> {
  if (!rules?.length) return schema;
  return schema.superRefine(
    (values, ctx) => {
      // A field that failed its own check is not compared (its message says enough); the others still are, even
      // when some other field is missing, so every problem shows at once.
      const failed = new Set(ctx.issues.map((i) => String(i.path?.[0])));
      const judged = rules.filter((r) => !r.fields.some((name) => failed.has(name)));
      for (const { field, message } of brokenRules(judged, values)) {
        ctx.addIssue({ code: "custom", path: [field], message, input: values[field] });
      }
    },
    { when: () => true },
  );
}

function wireSchema(
  table: PgTable,
  fields: readonly FieldDef[],
  mode: "insert" | "update",
  rules?: readonly RecordRule[],
): z.ZodObject<Record<string, z.ZodType>> {
  const columns = getTableColumns(table) as Record<string, Column>;
  const byName = new Map(fields.map((f) => [f.name, f]));
  const refinements: Record<string, Refine> = {};
  for (const [key, column] of Object.entries(columns)) {
    const r = refinement(column, byName.get(column.name));
    if (r) refinements[key] = r;
  }
  const create = mode === "insert" ? createInsertSchema : createUpdateSchema;
  const base = create(table, refinements as never) as unknown as z.ZodObject<Record<string, z.ZodType>>;
  // A field set only on a later change (feedback handled) is not taken when the record is created.
  const writable = new Set(
    fields
      .filter((f) => !f.readOnly && !SERVER_COLUMNS.has(f.name) && !(mode === "insert" && f.afterCreate))
      .map((f) => f.name),
  );
  const shape: Record<string, z.ZodType> = {};
  for (const [key, column] of Object.entries(columns)) {
    const schema = base.shape[key];
    if (schema && writable.has(column.name)) shape[column.name] = schema;
  }
  return withRules(z.object(shape), rules);
}

export function defineResource(input: ResourceInput): ResourceDef {
  const columns = new Set(Object.values(getTableColumns(input.table) as Record<string, Column>).map((c) => c.name));
  for (const f of input.fields) {
    if (!columns.has(f.name)) throw new Error(`${input.name}.${f.name} is not a column of ${input.name}`);
  }
  const checks: Record<string, CheckMessage> = { ...input.checks };
  for (const r of input.rules ?? []) if (r.constraint) checks[r.constraint] = { field: r.field, message: r.message };
  return {
    ...input,
    checks,
    insert: wireSchema(input.table, input.fields, "insert", input.rules),
    update: wireSchema(input.table, input.fields, "update", input.rules),
  };
}

// The wire name → Drizzle column map of a resource (server engine and CSV import read types from it).
export function wireColumns(def: Pick<ResourceDef, "table">): Map<string, Column> {
  return new Map(Object.values(getTableColumns(def.table) as Record<string, Column>).map((c) => [c.name, c]));
}

// Issue 20 §4: the resources whose row changes realtime announces (postgres_changes): the workspace's own, keyed by
// a bigint id (the outbox, document_event, names a row by it).
export function announcesChanges(def: Pick<ResourceDef, "scope" | "table">): boolean {
  return def.scope === "tenant" && wireColumns(def).get("id")?.getSQLType() === "bigint";
}
