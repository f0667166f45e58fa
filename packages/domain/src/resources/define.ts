import { type Column, getTableColumns } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { createSchemaFactory } from "drizzle-zod";
import { z } from "zod";
import { DATE_RANGE } from "../brand.ts";
import type { FieldDef, ResourceDef } from "./types.ts";

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
// DESIGN §2.4: dates are picked between 1900-01-01 and 2099-12-31; timestamps are held to the same days in UTC.
const FIRST_INSTANT = new Date(`${DATE_RANGE.min}T00:00:00.000Z`);
const LAST_INSTANT = new Date(`${DATE_RANGE.max}T23:59:59.999Z`);

// A real calendar day (not 2026-02-30), read without Date's two-digit-year quirk.
function isCalendarDay(v: string): boolean {
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

function refinement(column: Column, field: FieldDef | undefined): Refine | undefined {
  const label = field?.label ?? column.name;
  if (column.columnType === "PgNumeric") {
    const { min, max } = field ?? {};
    return (s) =>
      z.preprocess(
        numberToString,
        (s as z.ZodString)
          .regex(DECIMAL, `${label} must be a number`)
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
        .refine(isCalendarDay, `${label} must be a valid date (YYYY-MM-DD)`)
        // Only real days are compared: any other value already has its message above.
        .refine((v) => !isCalendarDay(v) || (v >= DATE_RANGE.min && v <= DATE_RANGE.max), outOfRange(label));
  }
  const checks: Refine[] = [];
  if (field?.kind === "email") checks.push((s) => (s as z.ZodString).regex(EMAIL, "Enter a valid e-mail address"));
  if (column.name === "currency" || column.name === "base_currency") {
    checks.push((s) => (s as z.ZodString).regex(CURRENCY, "Use a three-letter currency code such as SGD"));
  }
  if (column.notNull && !column.hasDefault) {
    checks.push((s) => (s as z.ZodString).trim().min(1, `${label} is required`));
  }
  return checks.length ? (s) => checks.reduce((acc, f) => f(acc), s) : undefined;
}

const { createInsertSchema, createUpdateSchema } = createSchemaFactory({ coerce: { date: true } });

function wireSchema(
  table: PgTable,
  fields: readonly FieldDef[],
  mode: "insert" | "update",
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
  const writable = new Set(fields.filter((f) => !f.readOnly && !SERVER_COLUMNS.has(f.name)).map((f) => f.name));
  const shape: Record<string, z.ZodType> = {};
  for (const [key, column] of Object.entries(columns)) {
    const schema = base.shape[key];
    if (schema && writable.has(column.name)) shape[column.name] = schema;
  }
  return z.object(shape);
}

export function defineResource(input: ResourceInput): ResourceDef {
  const columns = new Set(Object.values(getTableColumns(input.table) as Record<string, Column>).map((c) => c.name));
  for (const f of input.fields) {
    if (!columns.has(f.name)) throw new Error(`${input.name}.${f.name} is not a column of ${input.name}`);
  }
  return {
    ...input,
    insert: wireSchema(input.table, input.fields, "insert"),
    update: wireSchema(input.table, input.fields, "update"),
  };
}

// The wire name → Drizzle column map of a resource (server engine and CSV import read types from it).
export function wireColumns(def: Pick<ResourceDef, "table">): Map<string, Column> {
  return new Map(Object.values(getTableColumns(def.table) as Record<string, Column>).map((c) => [c.name, c]));
}
