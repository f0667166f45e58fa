import {
  findResource,
  RESOURCES,
  type RelationDef,
  type ResourceDef,
  wireColumns,
} from "@workmetrics/domain/resources";
import { type Column, getTableName } from "drizzle-orm";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import { RestError } from "./rest-error.ts";

// What the engine needs to know about a resource's table, computed once from its Drizzle definition.
export type ColumnMeta = {
  name: string;
  sqlType: string; // "numeric(14, 2)", "text[]", "uuid" …: the cast applied to every parameter for this column
  numeric: boolean; // sent as a decimal string (DESIGN §2.3)
  array: boolean;
  boolean: boolean;
  json: boolean;
  text: boolean;
  column: Column;
  readBy: string | null; // FieldDef.readBy: the workspace column whose workspace alone reads this one
};

export type ResourceMeta = {
  def: ResourceDef;
  table: string;
  columns: Map<string, ColumnMeta>;
  tenant: boolean; // has workspace_id
  hasId: boolean;
  primaryKey: string[] | null; // the table's key columns (workspace_id first on tenant tables)
  uniqueKeys: string[][]; // unique indexes and constraints, workspace_id left out
};

const cache = new Map<string, ResourceMeta>();

function describe(column: Column, readBy: string | null = null): ColumnMeta {
  const sqlType = column.getSQLType();
  return {
    name: column.name,
    sqlType,
    numeric: column.columnType === "PgNumeric",
    array: sqlType.endsWith("[]"),
    boolean: sqlType === "boolean",
    json: sqlType === "json" || sqlType === "jsonb",
    text: sqlType === "text" || sqlType.startsWith("varchar"),
    column,
    readBy,
  };
}

function primaryKey(table: PgTable): string[] | null {
  const cfg = getTableConfig(table);
  const composite = cfg.primaryKeys[0];
  if (composite) return composite.columns.map((c) => c.name);
  const single = cfg.columns.filter((c) => c.primary).map((c) => c.name);
  return single.length ? single : null;
}

function uniqueKeys(table: PgTable): string[][] {
  const cfg = getTableConfig(table);
  const keys: string[][] = [];
  const named = (cols: { name: string }[]) => cols.map((c) => c.name).filter((c) => c !== "workspace_id");
  for (const idx of cfg.indexes) {
    if (!idx.config.unique) continue;
    const cols = idx.config.columns.map((c) => ("name" in c && typeof c.name === "string" ? c.name : null));
    if (cols.every((c): c is string => c !== null)) keys.push(cols.filter((c) => c !== "workspace_id"));
  }
  for (const u of cfg.uniqueConstraints) keys.push(named(u.columns));
  for (const c of cfg.columns) if (c.isUnique) keys.push([c.name]);
  for (const pk of cfg.primaryKeys) keys.push(named(pk.columns));
  for (const c of cfg.columns) if (c.primary) keys.push([c.name]);
  return keys;
}

export function metaOf(def: ResourceDef): ResourceMeta {
  let meta = cache.get(def.name);
  if (!meta) {
    const readBy = new Map(def.fields.filter((f) => f.readBy).map((f) => [f.name, f.readBy as string]));
    const kept = new Set(def.fields.filter((f) => f.serverOnly).map((f) => f.name));
    const columns = new Map(
      [...wireColumns(def)]
        .filter(([name]) => !kept.has(name))
        .map(([name, c]) => [name, describe(c, readBy.get(name) ?? null)]),
    );
    meta = {
      def,
      table: getTableName(def.table),
      columns,
      tenant: columns.has("workspace_id"),
      hasId: columns.has("id"),
      primaryKey: primaryKey(def.table),
      uniqueKeys: uniqueKeys(def.table),
    };
    cache.set(def.name, meta);
  }
  return meta;
}

export function resourceMeta(name: string): ResourceMeta {
  const def = findResource(name);
  if (!def) {
    throw new RestError(404, "PGRST205", `Could not find the table 'public.${name}' in the schema cache`);
  }
  return metaOf(def);
}

export function columnOf(meta: ResourceMeta, name: string): ColumnMeta {
  const c = meta.columns.get(name);
  if (!c) throw new RestError(400, "42703", `column ${meta.def.name}.${name} does not exist`);
  return c;
}

// The relation an embed names: a relation key, a target resource (disambiguated by a hint) or a foreign-key column.
export function relationFor(meta: ResourceMeta, name: string, hint: string | null): { key: string; rel: RelationDef } {
  const rels = Object.entries(meta.def.relations);
  const byKey = rels.find(([k]) => k === name);
  if (byKey && (!hint || byKey[1].column === hint || byKey[1].resource === hint)) {
    return { key: byKey[0], rel: byKey[1] };
  }
  const byTarget = rels.filter(([, r]) => r.resource === name && (!hint || r.column === hint || r.references === hint));
  if (byTarget.length === 1) return { key: byTarget[0][0], rel: byTarget[0][1] };
  if (byTarget.length > 1) {
    throw new RestError(
      300,
      "PGRST201",
      `Could not embed because more than one relationship was found for '${meta.def.name}' and '${name}'`,
      byTarget.map(([k, r]) => ({ relationship: k, column: r.column })),
      `Try changing '${name}' to one of: ${byTarget.map(([k]) => k).join(", ")}`,
    );
  }
  const byColumn = rels.find(([, r]) => r.kind === "one" && r.column === name);
  if (byColumn) return { key: byColumn[0], rel: byColumn[1] };
  throw new RestError(
    400,
    "PGRST200",
    `Could not find a relationship between '${meta.def.name}' and '${name}' in the schema cache`,
  );
}

// Constraint name → the columns it covers (workspace_id left out). Postgres leaves the key out of a unique or
// foreign-key violation's detail on tables with row-level security, so the engine names the columns itself.
let constraints: Map<string, string[]> | null = null;

export function constraintColumns(name: string): string[] | null {
  if (!constraints) {
    constraints = new Map();
    for (const def of RESOURCES) {
      const cfg = getTableConfig(def.table);
      for (const idx of cfg.indexes) {
        const cols = idx.config.columns.map((c) => ("name" in c && typeof c.name === "string" ? c.name : ""));
        if (idx.config.name)
          constraints.set(
            idx.config.name,
            cols.filter((c) => c && c !== "workspace_id"),
          );
      }
      for (const fk of cfg.foreignKeys) {
        const cols = fk
          .reference()
          .columns.map((c) => c.name)
          .filter((c) => c !== "workspace_id");
        constraints.set(fk.getName(), cols);
      }
    }
  }
  return constraints.get(name) ?? null;
}
