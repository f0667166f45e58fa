import { type SQL, sql } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/pg-core";
import type { Tx } from "../../db/database.ts";
import { writeScope } from "../access.ts";
import { type RestRequest, runInsert, runUpdate, type TypeWords, validateRow } from "../engine.ts";
import { hooksOf, type RowValues } from "../hooks.ts";
import { emptyLevel } from "../query-parse.ts";
import type { ColumnMeta, ResourceMeta } from "../resource-meta.ts";
import { fromDatabaseError, RestError } from "../rest-error.ts";
import { arrayLiteral, ident, param } from "../sql-compile.ts";

// csv_import's writes (issue 5 item 4): every row is validated in memory first (the engine's validateRow and
// hooks), duplicate keys are found in the file and in the database with one query per unique key, and the good rows
// go in as a few multi-row statements. A statement that fails anyway is halved until the row at fault stands
// alone, written the engine's way, so the report names it with the database's own error.

export type ImportError = { row: number; field: string | null; message: string };

// A row of the file (numbered from 1) as sent, with the values the engine will write for it.
export type Candidate = { row: number; body: RowValues; values: RowValues; key?: string };

export type ImportContext = {
  tx: Tx;
  req: RestRequest; // an insert of the resource, as POST /rest/v1/<resource> runs it (upserts: merge-duplicates)
  upsert: boolean;
  errors: ImportError[];
  bad: Set<number>; // rows reported
  done: Set<number>; // rows written
};

// A file's author wrote yes/no and ;-separated lists, so the report names wrong values that way.
const CSV_WORDS: TypeWords = { boolean: "yes or no", list: "a list separated by ;" };

const PARAMETERS = 30_000; // bound parameters per statement (Postgres allows 65,535)
const MAX_BATCH = 500;

const isSql = (v: unknown) => Boolean(v && typeof v === "object" && "getSQL" in v);

export function describeError(err: unknown, row: number): ImportError[] {
  const e = err instanceof RestError ? err : fromDatabaseError(err);
  if (!e) throw err;
  if (Array.isArray(e.details) && e.details.length) {
    return e.details.map((d: { field?: string; message?: string }) => ({
      row,
      field: d.field ?? null,
      message: d.message ?? e.message,
    }));
  }
  const field = typeof e.details === "string" ? (/Key \(([^)=]+)\)/.exec(e.details)?.[1] ?? null) : null;
  return [
    { row, field, message: field && e.code === "23505" ? `${field} is already used by another record` : e.message },
  ];
}

function fail(ctx: ImportContext, row: number, err: unknown): void {
  ctx.errors.push(...describeError(err, row));
  ctx.bad.add(row);
}

// The request runUpdate needs for one row of an upsert: its natural key equal to `value`.
function updateOf(req: RestRequest, key: string, value: string): RestRequest {
  const condition = { kind: "filter" as const, column: key, negate: false, op: "eq" as const, quantifier: null, value };
  return {
    ...req,
    prefer: { ...req.prefer, resolution: null },
    query: { ...req.query, levels: new Map([["", { ...emptyLevel(), conditions: [condition] }]]) },
  };
}

// validateRow and the resource's hooks, as runInsert and runUpdate apply them; null when the row is reported.
export function checkInsert(ctx: ImportContext, row: number, body: RowValues): Candidate | null {
  try {
    const hook = hooksOf(ctx.req.meta.def.name)?.beforeInsert;
    const valid = validateRow(ctx.req, body, "insert", null, CSV_WORDS);
    return { row, body, values: hook ? hook(valid, ctx.req.caller) : valid };
  } catch (err) {
    fail(ctx, row, err);
    return null;
  }
}

export function checkUpdate(ctx: ImportContext, row: number, body: RowValues, key: string): Candidate | null {
  try {
    const hook = hooksOf(ctx.req.meta.def.name)?.beforeUpdate;
    const valid = validateRow(ctx.req, body, "update", null, CSV_WORDS);
    return { row, body, values: hook ? hook(valid, ctx.req.caller) : valid, key };
  } catch (err) {
    fail(ctx, row, err);
    return null;
  }
}

// A unique key's value in a row as text, or null when the row leaves it to the database (default, null, SQL).
function keyOf(c: Candidate, cols: readonly string[]): string | null {
  const parts: string[] = [];
  for (const col of cols) {
    const v = c.values[col];
    if (v === undefined || v === null || isSql(v)) return null;
    parts.push(v instanceof Date ? v.toISOString() : typeof v === "object" ? JSON.stringify(v) : String(v));
  }
  return JSON.stringify(parts);
}

// Of the unique keys' values, those another record of the workspace already has: one query per key.
async function existing(ctx: ImportContext, cols: readonly string[], keys: string[]): Promise<Set<string>> {
  const { meta } = ctx.req;
  const tuples = keys.map((k) => JSON.parse(k) as string[]);
  const scope = ctx.req.meta.tenant ? sql`t0.workspace_id = ${ctx.req.caller.workspaceId}::uuid` : sql`true`;
  const lists = cols.map((_, i) => sql`${arrayLiteral(tuples.map((t) => t[i]))}::text[]`);
  const names = cols.map((_, i) => sql.raw(`k${i}`));
  const res = await ctx.tx.execute(sql`
    select json_build_array(${sql.join(
      cols.map((c) => sql`t0.${ident(c)}::text`),
      sql`, `,
    )})::text as k from ${ident(meta.table)} t0 join unnest(${sql.join(lists, sql`, `)}) as k(${sql.join(names, sql`, `)})
    on ${sql.join(
      cols.map((c, i) => sql`t0.${ident(c)}::text = ${names[i]}`),
      sql` and `,
    )} where ${scope}`);
  // json_build_array spaces its items ("[\"a\", \"b\"]"); parse and re-stringify to compare like for like.
  return new Set((res.rows as Array<{ k: string }>).map((r) => JSON.stringify(JSON.parse(r.k))));
}

// The unique keys plain equality decides (a partial unique index, WHERE …, is left to the database).
function uniqueKeys(meta: ResourceMeta): string[][] {
  const partial = new Set(
    getTableConfig(meta.def.table)
      .indexes.filter((i) => i.config.unique && i.config.where)
      .map((i) =>
        i.config.columns
          .map((c) => ("name" in c && typeof c.name === "string" ? c.name : ""))
          .filter((c) => c !== "workspace_id")
          .join(","),
      ),
  );
  const seen = new Set<string>();
  return meta.uniqueKeys.filter((cols) => {
    const name = cols.join(",");
    if (seen.has(name) || partial.has(name) || cols.some((c) => !meta.columns.has(c))) return false;
    seen.add(name);
    return true;
  });
}

export type Duplicates = { later: Map<number, { first: number; cols: string[] }> };

// Rows whose unique key (SKU …) another record has: reported now without a statement. Rows repeating a key of an
// earlier row of the file are returned, to be written after the rest (an upsert merges them, as before).
export async function findDuplicates(ctx: ImportContext, rows: Candidate[]): Promise<Duplicates> {
  const { meta } = ctx.req;
  const later = new Map<number, { first: number; cols: string[] }>();
  for (const cols of uniqueKeys(meta)) {
    const first = new Map<string, number>();
    for (const c of rows) {
      if (later.has(c.row)) continue;
      const k = keyOf(c, cols);
      if (k === null) continue;
      const at = first.get(k);
      if (at === undefined) first.set(k, c.row);
      else later.set(c.row, { first: at, cols });
    }
    // An upsert merges a row into the record with its natural key; any other key taken is a conflict.
    if (first.size === 0 || (ctx.upsert && cols.join(",") === meta.def.naturalKey)) continue;
    const taken = await existing(ctx, cols, [...first.keys()]);
    for (const [k, row] of first) {
      if (taken.has(k)) {
        ctx.errors.push({
          row,
          field: cols.join(", "),
          message: `${cols.join(", ")} is already used by another record`,
        });
        ctx.bad.add(row);
      }
    }
  }
  return { later };
}

// Write `items` in one statement inside a savepoint; when it fails, halve and retry, down to the engine's
// one-row path whose error the report gives for that row.
async function bisect(
  ctx: ImportContext,
  items: Candidate[],
  many: (tx: Tx, items: Candidate[]) => Promise<unknown>,
  one: (tx: Tx, item: Candidate) => Promise<unknown>,
): Promise<void> {
  if (items.length === 0) return;
  try {
    await ctx.tx.transaction((sp) => (items.length === 1 ? one(sp, items[0]) : many(sp, items)));
    for (const c of items) ctx.done.add(c.row);
  } catch (err) {
    if (items.length === 1) return fail(ctx, items[0].row, err);
    if (!fromDatabaseError(err)) throw err;
    const half = Math.ceil(items.length / 2);
    await bisect(ctx, items.slice(0, half), many, one);
    await bisect(ctx, items.slice(half), many, one);
  }
}

function batches<T>(items: T[], columns: number): T[][] {
  const size = Math.max(1, Math.min(MAX_BATCH, Math.floor(PARAMETERS / (columns + 1))));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

// The engine's POST /rest/v1/<resource>: runInsert validates again, applies the hooks and writes the rows.
const insertMany = (ctx: ImportContext) => (tx: Tx, items: Candidate[]) =>
  runInsert(
    tx,
    ctx.req,
    items.map((c) => c.body),
  );
const insertOne = (ctx: ImportContext) => (tx: Tx, c: Candidate) => runInsert(tx, ctx.req, c.body);

export async function insertRows(ctx: ImportContext, rows: Candidate[]): Promise<void> {
  for (const batch of batches(rows, ctx.req.meta.columns.size)) {
    await bisect(ctx, batch, insertMany(ctx), insertOne(ctx));
  }
}

// A row repeating an earlier row's key: reported as the database would when the earlier row went in, else
// written alone (an upsert merges it into the earlier row's record).
export async function writeLater(ctx: ImportContext, rows: Candidate[], dups: Duplicates): Promise<void> {
  for (const c of rows) {
    const dup = dups.later.get(c.row);
    if (!ctx.upsert && dup && ctx.done.has(dup.first)) {
      const field = dup.cols.join(", ");
      ctx.errors.push({ row: c.row, field, message: `${field} is already used by another record` });
      ctx.bad.add(c.row);
    } else {
      await bisect(ctx, [c], insertMany(ctx), insertOne(ctx));
    }
  }
}

function cell(c: ColumnMeta, value: unknown): SQL {
  if (value === null || value === undefined) return sql`null::${sql.raw(c.sqlType)}`;
  if (value instanceof Date) return param(c, value.toISOString());
  if (c.json) return param(c, JSON.stringify(value));
  if (Array.isArray(value)) return param(c, arrayLiteral(value.map((v) => String(v))));
  return param(c, String(value));
}

// Updates of rows with the same columns as one UPDATE … FROM (VALUES …): what runUpdate does for each of them
// (the validated, hooked values; the caller's update scope; updated_at).
async function updateMany(ctx: ImportContext, tx: Tx, key: string, items: Candidate[]): Promise<void> {
  const { meta, caller } = ctx.req;
  const cols = Object.keys(items[0].values);
  const column = (name: string) => meta.columns.get(name) as ColumnMeta;
  const values = items.map(
    (c) =>
      sql`(${sql.join(
        [param(column(key), c.key as string), ...cols.map((n) => cell(column(n), c.values[n]))],
        sql`, `,
      )})`,
  );
  const sets = cols.map((n) => sql`${ident(n)} = v.${ident(n)}`);
  if (meta.columns.has("updated_at")) sets.push(sql`updated_at = now()`);
  const scope = writeScope(meta.def, caller, "update", sql.raw("t0"));
  await tx.execute(sql`update ${ident(meta.table)} as t0 set ${sql.join(sets, sql`, `)}
    from (values ${sql.join(values, sql`, `)}) as v(${sql.join([sql.raw("_key"), ...cols.map(ident)], sql`, `)})
    where ${scope ?? sql`true`} and t0.${ident(key)} = v._key`);
}

// Upserts' updates in file order of each key (a key named twice: the later row wins), grouped by their columns.
export async function updateRows(ctx: ImportContext, key: string, rows: Candidate[]): Promise<void> {
  const one = (tx: Tx, c: Candidate) => runUpdate(tx, updateOf(ctx.req, key, c.key as string), c.body);
  const rounds: Candidate[][] = [];
  const times = new Map<string, number>();
  for (const c of rows) {
    const n = times.get(c.key as string) ?? 0;
    times.set(c.key as string, n + 1);
    if (rounds[n]) rounds[n].push(c);
    else rounds[n] = [c];
  }
  for (const round of rounds) {
    const groups = new Map<string, Candidate[]>();
    for (const c of round) {
      const names = Object.keys(c.values);
      // Nothing to set, or a hook's SQL over the row: the engine's own path, one row at a time.
      const alone = names.length === 0 || names.some((n) => isSql(c.values[n]));
      const sig = alone ? `#${c.row}` : names.sort().join(",");
      const group = groups.get(sig);
      if (group) group.push(c);
      else groups.set(sig, [c]);
    }
    for (const group of groups.values()) {
      for (const batch of batches(group, Object.keys(group[0].values).length + 1)) {
        await bisect(ctx, batch, (tx, items) => updateMany(ctx, tx, key, items), one);
      }
    }
  }
}
