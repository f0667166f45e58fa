import type { RelationDef, ResourceDef } from "@workmetrics/domain/resources";
import { type SQL, sql } from "drizzle-orm";
import {
  type Condition,
  emptyLevel,
  type Filter,
  type Level,
  type OrderTerm,
  parseList,
  parseOrder,
  type SelectItem,
} from "./query-parse.ts";
import { type ColumnMeta, columnOf, metaOf, type ResourceMeta, relationFor, resourceMeta } from "./resource-meta.ts";
import { notEmbedded, parseError, RestError } from "./rest-error.ts";

// Parsed queries → one parameterised statement (DESIGN §2.1). Every value is a bound parameter cast to its column's
// type; identifiers come only from the registry. Embeds are correlated subqueries built into the row's JSON, so a
// page costs one statement whatever it embeds (issue 5: no query per row).

// Row-level scope of a resource for the caller (access.ts): the workspace condition, or a refusal (throws).
// `label`: the embed reads only the target's id and label (a readable list's reference).
export type Scope = (def: ResourceDef, alias: SQL, label: boolean) => SQL | null;

// `reads`: whether the caller reads a column (false leaves it out of `*`; named, it throws the refusal).
export type CompileContext = {
  scope: Scope;
  levels: Map<string, Level>;
  aliases: number;
  reads?: (def: ResourceMeta["def"], column: string, named: boolean) => boolean;
};

export const ident = (name: string) => sql.identifier(name);
const col = (alias: SQL, name: string) => sql`${alias}.${ident(name)}`;
// A column's value as the caller reads it: a `readBy` column is null to every workspace but the one it names.
const readCol = (alias: SQL, c: ColumnMeta) =>
  c.readBy
    ? sql`(case when ${col(alias, c.readBy)} = nullif(current_setting('app.workspace_id', true), '')::uuid
        then ${col(alias, c.name)} end)`
    : col(alias, c.name);
// JSON keys are registry names or aliases the parser limited to [A-Za-z_][A-Za-z0-9_]*.
const key = (name: string) => sql.raw(`'${name}'`);

export function param(c: ColumnMeta, value: string, asArray = false): SQL {
  return sql`${value}::${sql.raw(asArray ? `${c.sqlType}[]` : c.sqlType)}`;
}

// A Postgres array literal of text items, every item quoted.
export function arrayLiteral(items: readonly string[]): string {
  return `{${items.map((v) => `"${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`).join(",")}}`;
}

const COMPARE: Record<string, string> = { eq: "=", neq: "<>", gt: ">", gte: ">=", lt: "<", lte: "<=" };

function filterSql(meta: ResourceMeta, alias: SQL, f: Filter): SQL {
  const c = columnOf(meta, f.column);
  const target = readCol(alias, c);
  let out: SQL;
  if (f.op === "is") {
    const v = f.value.toLowerCase();
    if (v === "null") out = sql`${target} is null`;
    else if (v === "not_null") out = sql`${target} is not null`;
    else if (v === "true" || v === "false" || v === "unknown") {
      if (!c.boolean) throw parseError(`is.${v} applies to true/false columns only; ${c.name} is not one`);
      out = sql`${target} is ${sql.raw(v)}`;
    } else throw parseError(`is. takes null, not_null, true, false or unknown, not "${f.value}"`);
  } else if (f.op === "in") {
    out = sql`${target} = any(${param(c, arrayLiteral(parseList(f.value)), true)})`;
  } else if (f.op === "cs" || f.op === "cd" || f.op === "ov") {
    if (!c.array && !c.json) throw parseError(`${f.op} applies to array or JSON columns; ${c.name} is neither`);
    const op = f.op === "cs" ? "@>" : f.op === "cd" ? "<@" : "&&";
    if (f.op === "ov" && c.json) throw parseError("ov applies to array columns");
    out = sql`${target} ${sql.raw(op)} ${param(c, f.value)}`;
  } else if (f.op === "like" || f.op === "ilike") {
    const op = sql.raw(f.op === "like" ? "like" : "ilike");
    const text = c.text ? target : sql`${target}::text`;
    const pattern = (v: string) => v.replace(/\*/g, "%");
    if (f.quantifier) {
      const list = arrayLiteral(parseList(f.value).map(pattern));
      out = sql`${text} ${op} ${sql.raw(f.quantifier)}(${list}::text[])`;
    } else {
      out = sql`${text} ${op} ${pattern(f.value)}::text`;
    }
  } else {
    const op = sql.raw(COMPARE[f.op]);
    if (f.quantifier) {
      out = sql`${target} ${op} ${sql.raw(f.quantifier)}(${param(c, arrayLiteral(parseList(f.value)), true)})`;
    } else {
      out = sql`${target} ${op} ${param(c, f.value)}`;
    }
  }
  return f.negate ? sql`not (${out})` : out;
}

export function conditionSql(meta: ResourceMeta, alias: SQL, c: Condition): SQL {
  if (c.kind === "filter") return filterSql(meta, alias, c);
  const parts = c.children.map((child) => sql`(${conditionSql(meta, alias, child)})`);
  const joined = sql.join(parts, sql.raw(c.kind === "and" ? " and " : " or "));
  return c.negate ? sql`not (${joined})` : sql`(${joined})`;
}

export const and = (parts: SQL[]): SQL => (parts.length ? sql.join(parts, sql.raw(" and ")) : sql`true`);

// An embed of one level as an order term may name it: by its alias or by the name the select gave it.
export type LevelEmbed = {
  alias: string | null;
  name: string;
  rel: RelationDef;
  target: ResourceMeta;
  t: SQL; // the embed's table alias inside `from`
  from: SQL; // "from <table> <t> where <join, workspace, scope, the embed's filters>", correlated to the parent row
};

// order=category(name): the embedded row's column as a correlated scalar subquery, so it also works where only the
// key is walked to the offset (engine.ts). It reads the row through the embed's own scope and filters, so it orders
// by exactly what the embed shows; to-many embeds have no single value to order by (PGRST118).
function relatedValue(meta: ResourceMeta, embeds: LevelEmbed[], relation: string, column: string): SQL {
  const named = embeds.find((x) => x.alias === relation) ?? embeds.find((x) => x.name === relation);
  if (!named) throw notEmbedded(relation);
  if (named.rel.kind !== "one") {
    const label = named.alias ?? named.name;
    throw new RestError(
      400,
      "PGRST118",
      `A related order on '${label}' is not possible`,
      `'${meta.table}' and '${label}' do not form a many-to-one or one-to-one relationship`,
    );
  }
  const c = columnOf(named.target, column);
  return sql`(select ${readCol(named.t, c)} ${named.from} limit 1)`;
}

export function orderSql(meta: ResourceMeta, alias: SQL, terms: OrderTerm[], embeds: LevelEmbed[] = []): SQL {
  const list = terms.map((t) => {
    const value =
      t.relation === null ? readCol(alias, columnOf(meta, t.column)) : relatedValue(meta, embeds, t.relation, t.column);
    const dir = t.descending ? "desc" : "asc";
    const nulls = t.nulls ? ` nulls ${t.nulls}` : "";
    return sql`${value} ${sql.raw(dir + nulls)}`;
  });
  // A stable page order: the key breaks ties, in the direction of the first term (so one index serves both).
  // The id, or on a table without one the rest of its primary key (workspace_id is pinned by the scope).
  const tiebreak = meta.hasId ? ["id"] : (meta.primaryKey ?? []).filter((c) => c !== "workspace_id");
  for (const name of tiebreak) {
    if (terms.some((t) => t.relation === null && t.column === name)) continue;
    list.push(sql`${col(alias, name)} ${sql.raw(terms[0]?.descending ? "desc" : "asc")}`);
  }
  return list.length ? sql`order by ${sql.join(list, sql`, `)}` : sql``;
}

// One level of a read: its row JSON, the EXISTS conditions its !inner embeds put on the row, and its embeds.
type RowSql = { json: SQL; inner: SQL[]; embeds: LevelEmbed[] };

// The JSON of one row: selected columns (numeric as decimal strings) and embedded resources.
export function rowJson(
  meta: ResourceMeta,
  alias: SQL,
  items: SelectItem[],
  ctx: CompileContext,
  path: string,
): RowSql {
  const pairs: SQL[] = [];
  const inner: SQL[] = [];
  const embeds: LevelEmbed[] = [];
  for (const item of items) {
    if (item.kind === "star") {
      for (const c of meta.columns.values()) {
        if (ctx.reads && !ctx.reads(meta.def, c.name, false)) continue;
        pairs.push(sql`${key(c.name)}, ${valueSql(alias, c, null)}`);
      }
    } else if (item.kind === "column") {
      const c = columnOf(meta, item.name);
      ctx.reads?.(meta.def, c.name, true);
      pairs.push(sql`${key(item.alias ?? item.name)}, ${valueSql(alias, c, item.cast)}`);
    } else {
      const { key: relKey, rel } = relationFor(meta, item.name, item.hint);
      const target = resourceMeta(rel.resource);
      const embedPath = path ? `${path}.${item.alias ?? item.name}` : (item.alias ?? item.name);
      const level = ctx.levels.get(embedPath) ?? emptyLevel();
      const t = sql.raw(`t${ctx.aliases++}`);
      const conds: SQL[] =
        rel.kind === "one"
          ? [sql`${col(t, rel.references)} = ${col(alias, rel.column)}`]
          : [sql`${col(t, rel.column)} = ${col(alias, rel.references)}`];
      if (meta.tenant && target.tenant) conds.push(sql`${col(t, "workspace_id")} = ${col(alias, "workspace_id")}`);
      const scope = ctx.scope(target.def, t, rel.kind === "one" && labelOnly(target, item.select));
      if (scope) conds.push(scope);
      for (const c of level.conditions) {
        readsNamed(target, c, ctx);
        conds.push(conditionSql(target, t, c));
      }
      for (const o of level.order) if (!o.relation) ctx.reads?.(target.def, o.column, true);
      const nested = rowJson(target, t, item.select, ctx, embedPath);
      const json = nested.json;
      const where = and([...conds, ...nested.inner]);
      const from = sql`from ${ident(target.table)} ${t} where ${where}`;
      if (item.inner) inner.push(sql`exists (select 1 ${from})`);
      embeds.push({ alias: item.alias, name: item.name, rel, target, t, from });
      const name = key(item.alias ?? relKey);
      if (rel.kind === "one") {
        pairs.push(sql`${name}, (select ${json} ${from} limit 1)`);
      } else {
        const order = orderSql(target, t, level.order, nested.embeds);
        const limit = level.limit !== null ? sql` limit ${level.limit}` : sql``;
        const offset = level.offset !== null ? sql` offset ${level.offset}` : sql``;
        pairs.push(
          sql`${name}, coalesce((select json_agg(e.j) from (select ${json} as j ${from} ${order}${limit}${offset}) e), '[]'::json)`,
        );
      }
    }
  }
  return { json: buildObject(pairs), inner, embeds };
}

// An embed's filters name columns as a select does: one the caller may not read is refused.
function readsNamed(meta: ResourceMeta, c: Condition, ctx: CompileContext): void {
  if (c.kind === "filter") ctx.reads?.(meta.def, c.column, true);
  else for (const child of c.children) readsNamed(meta, child, ctx);
}

// An embed that asks for nothing but the record's id and label column (category(id,name)).
function labelOnly(target: ResourceMeta, select: SelectItem[]): boolean {
  const allowed = new Set(["id", target.def.display]);
  return select.length > 0 && select.every((i) => i.kind === "column" && !i.cast && allowed.has(i.name));
}

function buildObject(pairs: SQL[]): SQL {
  if (pairs.length === 0) return sql`'{}'::json`;
  // json_build_object takes at most 100 arguments: wide selects are merged from chunks.
  const chunks: SQL[] = [];
  for (let i = 0; i < pairs.length; i += 50)
    chunks.push(sql`jsonb_build_object(${sql.join(pairs.slice(i, i + 50), sql`, `)})`);
  if (chunks.length === 1) return sql`json_build_object(${sql.join(pairs, sql`, `)})`;
  return sql`(${sql.join(chunks, sql` || `)})::json`;
}

function valueSql(alias: SQL, c: ColumnMeta, cast: string | null): SQL {
  const v = readCol(alias, c);
  if (cast) return sql`${v}::${sql.raw(cast)}`;
  return c.numeric ? sql`${v}::text` : v;
}

export type ReadPlan = {
  meta: ResourceMeta;
  alias: SQL;
  json: SQL;
  where: SQL;
  order: SQL;
  limit: number | null;
  offset: number;
};

// The top level of a read: its row JSON, WHERE (scope, filters, !inner embeds), order and page.
export function planRead(meta: ResourceMeta, select: SelectItem[], ctx: CompileContext, scope: SQL | null): ReadPlan {
  const alias = sql.raw("t0");
  ctx.aliases = Math.max(ctx.aliases, 1);
  const level = ctx.levels.get("") ?? emptyLevel();
  const row = rowJson(meta, alias, select, ctx, "");
  for (const path of ctx.levels.keys()) {
    if (path && !embedExists(select, path.split("."))) throw notEmbedded(path);
  }
  const conds: SQL[] = [];
  if (scope) conds.push(scope);
  for (const c of level.conditions) conds.push(conditionSql(meta, alias, c));
  conds.push(...row.inner);
  const order = level.order.length ? level.order : parseOrder(meta.def.defaultOrder);
  return {
    meta,
    alias,
    json: row.json,
    where: and(conds),
    order: orderSql(meta, alias, order, row.embeds),
    limit: level.limit,
    offset: level.offset ?? 0,
  };
}

function embedExists(items: SelectItem[], path: string[]): boolean {
  const [head, ...rest] = path;
  const embed = items.find((i) => i.kind === "embed" && (i.alias ?? i.name) === head);
  if (embed?.kind !== "embed") return false;
  return rest.length === 0 || embedExists(embed.select, rest);
}

export { metaOf };
