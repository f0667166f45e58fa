import { SERVER_COLUMNS } from "@workmetrics/domain/resources";
import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Tx } from "../db/database.ts";
import { type Caller, keptTotal, readScope, readsColumn, writeScope } from "./access.ts";
import { hooksOf, type RowValues } from "./hooks.ts";
import type { Condition, ParsedQuery, Preferences, SelectItem } from "./query-parse.ts";
import type { ColumnMeta, ResourceMeta } from "./resource-meta.ts";
import { RestError } from "./rest-error.ts";
import { and, arrayLiteral, type CompileContext, conditionSql, ident, param, planRead } from "./sql-compile.ts";

// Runs one /rest/v1 request inside the request's transaction: a read (one statement, with count) or a write
// (validated, server columns filled, one statement returning the representation).

export const MAX_ROWS = 10_000; // rows one write may carry (and one read, when the route sets no maxRows)

export type RestRequest = {
  meta: ResourceMeta;
  caller: Caller;
  query: ParsedQuery;
  prefer: Preferences;
  single: boolean; // Accept: application/vnd.pgrst.object+json
  range: { offset: number; limit: number | null } | null;
  head: boolean;
  // PostgREST's db-max-rows (MAX_ROWS): a read returns at most this many rows, a larger limit is capped to it.
  maxRows?: number;
};

export type RestResult = { status: number; headers: Record<string, string>; body: string | null };

type Row = { body: string; n: number; total?: string | number | null };

const context = (req: RestRequest): CompileContext => ({
  scope: (def, alias, label) => readScope(def, req.caller, alias, label),
  reads: (def, column, named) => readsColumn(def, req.caller, column, named),
  levels: req.query.levels,
  aliases: 1,
});

function contentRange(offset: number, n: number, total: number | null): string {
  const of = total === null ? "*" : String(total);
  return n === 0 ? `*/${of}` : `${offset}-${offset + n - 1}/${of}`;
}

function singleBody(body: string, n: number): string {
  if (n !== 1) {
    throw new RestError(
      406,
      "PGRST116",
      "JSON object requested, multiple (or no) rows returned",
      `The result contains ${n} rows`,
    );
  }
  return body.slice(1, -1);
}

async function planned(tx: Tx, from: SQL): Promise<number> {
  const res = await tx.execute(sql`explain (format json) select 1 ${from}`);
  const row = res.rows[0] as Record<string, unknown> | undefined;
  const raw = row ? Object.values(row)[0] : null;
  const plan = (typeof raw === "string" ? JSON.parse(raw) : raw) as Array<{ Plan: { "Plan Rows": number } }>;
  return Math.round(plan[0]?.Plan["Plan Rows"] ?? 0);
}

const innerEmbed = (items: SelectItem[]): boolean =>
  items.some((i) => i.kind === "embed" && (i.inner || innerEmbed(i.select)));

// No filter and no !inner embed: the read returns every row in the caller's scope.
function unfiltered(req: RestRequest): boolean {
  const top = req.query.levels.get("");
  return (top?.conditions.length ?? 0) === 0 && !innerEmbed(req.query.select);
}

// Filtering or ordering by a column the caller may not read would reveal it: refused as naming it is.
function readsNamed(req: RestRequest): void {
  const level = req.query.levels.get("");
  const walk = (c: Condition): void => {
    if (c.kind === "filter") readsColumn(req.meta.def, req.caller, c.column, true);
    else for (const child of c.children) walk(child);
  };
  for (const c of level?.conditions ?? []) walk(c);
  for (const t of level?.order ?? []) if (!t.relation) readsColumn(req.meta.def, req.caller, t.column, true);
}

export async function runRead(tx: Tx, req: RestRequest): Promise<RestResult> {
  const { meta } = req;
  readsNamed(req);
  const ctx = context(req);
  const scope = readScope(meta.def, req.caller, sql.raw("t0"));
  const plan = planRead(meta, req.query.select, ctx, scope);
  const level = req.query.levels.get("");
  const offset = req.range?.offset ?? plan.offset;
  const wanted = req.range?.limit ?? plan.limit ?? level?.limit ?? null;
  const cap = req.maxRows ?? MAX_ROWS;
  const limit = Math.min(wanted ?? cap, cap);
  const table = ident(meta.table);
  const from = sql`from ${table} t0 where ${plan.where}`;
  // Issue 9 §3: the planner's estimate comes from statistics over every row of the table, so a caller whose scope
  // is part of it (a workspace, owner-only rows) gets planned/estimated as exact: its own figures, never others'.
  const exact = req.prefer.count === "exact" || (req.prefer.count !== null && scope !== null);
  // An unfiltered total is the workspace's kept row count when the caller sees the whole table; otherwise counted.
  const kept = exact && unfiltered(req) ? keptTotal(meta.def, meta.table, req.caller) : null;
  const total = kept ? sql`, ${kept} as total` : exact ? sql`, (select count(*) ${from}) as total` : sql``;
  // The page first, its JSON after: JSON (and embeds) built below the LIMIT would be built for every row the
  // OFFSET skips too. Past the first page only the key is walked to the offset (an index-only scan when an index
  // serves the order, e.g. product (workspace_id, name, id)) and the page's rows are fetched by key.
  const key = meta.primaryKey;
  const page =
    key && offset > 0
      ? sql`select t0.* from (select ${sql.join(
          key.map((c) => sql`t0.${ident(c)}`),
          sql`, `,
        )} ${from} ${plan.order} limit ${limit} offset ${offset}) k
        join ${table} t0 on ${and(key.map((c) => sql`t0.${ident(c)} = k.${ident(c)}`))} ${plan.order}`
      : sql`select t0.* ${from} ${plan.order} limit ${limit} offset ${offset}`;
  const res = await tx.execute(sql`
    select coalesce(json_agg(r.j), '[]'::json)::text as body, count(*)::int as n ${total}
    from (select ${plan.json} as j from (${page}) t0) r`);
  const row = res.rows[0] as unknown as Row;
  let count: number | null = exact ? Number(row.total) : null;
  if (!exact && (req.prefer.count === "planned" || req.prefer.count === "estimated")) {
    count = await planned(tx, from);
    if (req.prefer.count === "estimated" && count < 10_000) {
      const exactRes = await tx.execute(sql`select count(*)::int as n ${from}`);
      count = Number((exactRes.rows[0] as { n: number }).n);
    }
  }
  const body = req.single ? singleBody(row.body, row.n) : row.body;
  const headers: Record<string, string> = { "content-range": contentRange(offset, row.n, count) };
  if (count !== null && req.prefer.count) headers["preference-applied"] = `count=${req.prefer.count}`;
  return { status: 200, headers, body: req.head ? null : body };
}

// ---- writes ----

function shapeKeys(schema: z.ZodType<Record<string, unknown>>): Set<string> {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return new Set(Object.keys(shape ?? {}));
}

function serialize(c: ColumnMeta, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (c.json) return JSON.stringify(value);
  if (Array.isArray(value)) return arrayLiteral(value.map((v) => String(v)));
  return String(value);
}

const valueSql = (c: ColumnMeta, value: unknown): SQL => {
  if (value && typeof value === "object" && "getSQL" in value) return value as SQL;
  const text = serialize(c, value);
  return text === null ? sql`null` : param(c, text);
};

// How a wrong-typed value is named where it differs by medium: JSON says true/false and arrays; a CSV file, yes/no
// and a ;-separated list.
export type TypeWords = { boolean: string; list: string };
const JSON_WORDS: TypeWords = { boolean: "true or false", list: "a list" };

// zod's own words for a value of the wrong type ("Invalid input: expected boolean, received string") as a person
// reads them; every other message comes from the registry's schema and already names the field.
function plainIssue(
  issue: { code: string; message: string; expected?: unknown; values?: unknown[] },
  label: string,
  column: ColumnMeta | undefined,
  words: TypeWords,
): string {
  if (issue.code === "invalid_value" && Array.isArray(issue.values)) {
    return `${label} must be one of ${issue.values.map(String).join(", ")}`;
  }
  if (issue.code !== "invalid_type") return issue.message;
  const whole = column?.column.columnType === "PgInteger" || column?.column.columnType === "PgBigInt53";
  const expected: Record<string, string> = {
    boolean: words.boolean,
    number: whole ? "a whole number" : "a number",
    int: "a whole number",
    bigint: "a whole number",
    array: words.list,
    string: "text",
    date: "a date",
    object: "an object",
  };
  return `${label} must be ${expected[String(issue.expected)] ?? "a valid value"}`;
}

// Check a body's keys, then validate it with the resource's zod schema (422 names the field at fault).
export function validateRow(
  req: RestRequest,
  raw: unknown,
  mode: "insert" | "update",
  index: number | null,
  words: TypeWords = JSON_WORDS,
): RowValues {
  const { meta, caller } = req;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    throw new RestError(400, "PGRST102", "The body must be a JSON object (or an array of objects to insert many)");
  }
  const schema = mode === "insert" ? meta.def.insert : meta.def.update;
  const writable = shapeKeys(schema);
  const operatorOnly = new Set(meta.def.fields.filter((f) => f.operatorOnly).map((f) => f.name));
  const row = raw as Record<string, unknown>;
  const allowed = req.query.columns ? new Set(req.query.columns) : null;
  const picked: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (allowed && !allowed.has(k)) continue;
    if (!meta.columns.has(k)) {
      throw new RestError(
        400,
        "PGRST204",
        `Could not find the '${k}' column of '${meta.def.name}' in the schema cache`,
      );
    }
    if (k === "workspace_id" && meta.tenant) {
      // Platform operators name the workspace they write to (credits); nobody else may.
      if (caller.kind === "operator" && v === caller.workspaceId) continue;
      throw new RestError(403, "42501", "workspace_id is set by the server: records always belong to your workspace", [
        { field: "workspace_id", message: "Cannot be set" },
      ]);
    }
    if (!writable.has(k) || SERVER_COLUMNS.has(k) || (operatorOnly.has(k) && caller.kind !== "operator")) {
      throw new RestError(403, "42501", `${k} cannot be written`, [{ field: k, message: "Cannot be changed here" }]);
    }
    picked[k] = v;
  }
  const parsed = schema.safeParse(picked);
  if (!parsed.success) {
    const labels = new Map(meta.def.fields.map((f) => [f.name, f.label]));
    const details = parsed.error.issues.map((i) => {
      const field = i.path.map(String).join(".");
      const missing = i.code === "invalid_type" && picked[field] === undefined;
      return {
        field,
        message: missing
          ? `${labels.get(field) ?? field} is required`
          : plainIssue(i, labels.get(field) ?? field, meta.columns.get(field), words),
        ...(index === null ? {} : { row: index }),
      };
    });
    const first = details[0];
    throw new RestError(
      422,
      "validation_failed",
      `${first ? `${first.field}: ` : ""}${first?.message ?? "Invalid input"}${index === null ? "" : ` (row ${index + 1})`}`,
      details,
    );
  }
  // Only the keys the client sent: zod may add nothing the body did not carry (defaults stay the database's).
  const out: RowValues = {};
  for (const [k, v] of Object.entries(parsed.data)) if (k in picked) out[k] = v;
  return out;
}

function requireFilter(req: RestRequest, verb: string): SQL {
  const level = req.query.levels.get("");
  if (!level || level.conditions.length === 0) {
    throw new RestError(
      400,
      "21000",
      `${verb} requires a WHERE clause`,
      null,
      "Add a filter such as id=eq.42 (a bulk change names its rows too)",
    );
  }
  return and(level.conditions.map((c) => conditionSql(req.meta, sql.raw("t0"), c)));
}

async function representation(
  tx: Tx,
  req: RestRequest,
  statement: SQL,
  status: number,
  emptyStatus: number,
): Promise<RestResult> {
  const ctx = context(req);
  const wantsBody = req.prefer.return === "representation" || req.single;
  const plan = wantsBody ? planRead(req.meta, req.query.select, ctx, null) : null;
  const json = plan ? plan.json : sql`1`;
  const res = await tx.execute(sql`
    with w as (${statement})
    select coalesce(json_agg(r.j), '[]'::json)::text as body, count(*)::int as n
    from (select ${json} as j from w t0) r`);
  const row = res.rows[0] as unknown as Row;
  const body = req.single ? singleBody(row.body, row.n) : row.body;
  const headers: Record<string, string> = {
    "content-range": contentRange(0, row.n, req.prefer.count ? row.n : null),
  };
  if (req.prefer.return === "representation") headers["preference-applied"] = "return=representation";
  if (req.prefer.return === "representation") return { status, headers, body };
  return { status: emptyStatus, headers, body: null };
}

export async function runInsert(tx: Tx, req: RestRequest, body: unknown): Promise<RestResult> {
  const { meta, caller } = req;
  writeScope(meta.def, caller, "create", sql.raw("t0"));
  const upsert = req.prefer.resolution !== null;
  if (upsert) writeScope(meta.def, caller, "update", sql.raw("t0"));
  const list = Array.isArray(body) ? body : [body];
  if (list.length === 0) return { status: 201, headers: { "content-range": "*/0" }, body: req.single ? null : "[]" };
  if (list.length > MAX_ROWS) throw new RestError(413, "PGRST413", `At most ${MAX_ROWS} rows per request`);
  const hooks = hooksOf(meta.def.name);
  const rows = list.map((raw, i) => {
    const row = validateRow(req, raw, "insert", Array.isArray(body) ? i : null);
    return hooks?.beforeInsert ? hooks.beforeInsert(row, caller) : row;
  });
  const names = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cols = names.map((n) => req.meta.columns.get(n) as ColumnMeta);
  const insertCols = meta.tenant ? ["workspace_id", ...names] : names;
  const values = rows.map((r) => {
    const cells = cols.map((c) => (c.name in r ? valueSql(c, r[c.name]) : sql`default`));
    if (meta.tenant) cells.unshift(sql`${caller.workspaceId}::uuid`);
    return sql`(${sql.join(cells, sql`, `)})`;
  });
  let conflict = sql``;
  if (upsert) {
    const target = req.query.onConflict ?? (meta.def.naturalKey ? [meta.def.naturalKey] : null);
    if (!target || !meta.uniqueKeys.some((k) => sameSet(k, target))) {
      throw new RestError(
        400,
        "42P10",
        "there is no unique or exclusion constraint matching the ON CONFLICT specification",
        null,
        `Use on_conflict with one of: ${meta.uniqueKeys.map((k) => k.join(",")).join("; ")}`,
      );
    }
    const targetCols = meta.tenant ? ["workspace_id", ...target] : target;
    const updates = names.filter((n) => !target.includes(n));
    if (req.prefer.resolution === "ignore-duplicates" || updates.length === 0) {
      conflict = sql` on conflict (${sql.join(targetCols.map(ident), sql`, `)}) do nothing`;
    } else {
      const sets = updates.map((n) => sql`${ident(n)} = excluded.${ident(n)}`);
      if (meta.columns.has("updated_at")) sets.push(sql`updated_at = now()`);
      conflict = sql` on conflict (${sql.join(targetCols.map(ident), sql`, `)}) do update set ${sql.join(sets, sql`, `)}`;
    }
  }
  const statement = sql`insert into ${ident(meta.table)} (${sql.join(insertCols.map(ident), sql`, `)})
    values ${sql.join(values, sql`, `)}${conflict} returning *`;
  return representation(tx, req, statement, 201, 201);
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

export async function runUpdate(tx: Tx, req: RestRequest, body: unknown): Promise<RestResult> {
  const { meta, caller } = req;
  const alias = sql.raw("t0");
  const scope = writeScope(meta.def, caller, "update", alias);
  const where = requireFilter(req, "UPDATE");
  let patch = validateRow(req, body, "update", null);
  const hooks = hooksOf(meta.def.name);
  if (hooks?.beforeUpdate) patch = hooks.beforeUpdate(patch, caller);
  const sets = Object.entries(patch).map(
    ([k, v]) => sql`${ident(k)} = ${valueSql(meta.columns.get(k) as ColumnMeta, v)}`,
  );
  if (sets.length === 0) throw new RestError(400, "PGRST102", "Nothing to update: the body names no column");
  if (meta.columns.has("updated_at")) sets.push(sql`updated_at = now()`);
  const statement = sql`update ${ident(meta.table)} as t0 set ${sql.join(sets, sql`, `)}
    where ${and([...(scope ? [scope] : []), where])} returning t0.*`;
  return representation(tx, req, statement, 200, 204);
}

export async function runDelete(tx: Tx, req: RestRequest): Promise<RestResult> {
  const { meta, caller } = req;
  const alias = sql.raw("t0");
  const scope = writeScope(meta.def, caller, "delete", alias);
  const where = and([...(scope ? [scope] : []), requireFilter(req, "DELETE")]);
  const keep = hooksOf(meta.def.name)?.keep;
  if (keep) {
    const res = await tx.execute(
      sql`select exists (select 1 from ${ident(meta.table)} t0 where ${where} and ${keep.where}) as kept`,
    );
    if ((res.rows[0] as { kept: boolean }).kept) throw new RestError(409, "23514", keep.message);
  }
  const statement = sql`delete from ${ident(meta.table)} as t0 where ${where} returning t0.*`;
  return representation(tx, req, statement, 200, 204);
}
