import { COMMANDS, type CommandAnswer } from "@workmetrics/domain/commands";
import { findResource } from "@workmetrics/domain/resources";
import { sql } from "drizzle-orm";
import type { Tx } from "../../db/database.ts";
import { type Caller, readScope, writeScope } from "../access.ts";
import type { RestRequest } from "../engine.ts";
import { emptyLevel } from "../query-parse.ts";
import { type ColumnMeta, metaOf, type ResourceMeta } from "../resource-meta.ts";
import { RestError } from "../rest-error.ts";
import { arrayLiteral, ident } from "../sql-compile.ts";
import { Rollback } from "../transaction.ts";
import { implement } from "./command.ts";
import {
  type Candidate,
  checkInsert,
  checkUpdate,
  findDuplicates,
  type ImportContext,
  type ImportError,
  insertRows,
  updateRows,
  writeLater,
} from "./csv-import.write.ts";

// Issue 5 item 4: CSV import. Rows keyed by column name or field label, cells as text; a bad row imports nothing of
// its file unless skip_bad_rows; the answer is a row-by-row report. Upserts match on the resource's natural key.
// The writes (csv-import.write.ts) validate every row first and insert in a few multi-row statements.

export type ImportReport = CommandAnswer<"csv_import">;

// Clear yes/no values only (the web's preview reads the same set); anything else is reported, never guessed.
const TRUE = new Set(["true", "yes", "y", "1"]);
const FALSE = new Set(["false", "no", "n", "0"]);

// A cell the column cannot hold, with the reason in the file's words.
class BadCell {
  constructor(readonly message: string) {}
}

// A CSV cell → the JSON value the resource's schema expects; "" leaves the column out (its default applies).
function coerce(c: ColumnMeta, label: string, cell: string | number | boolean | null): unknown {
  if (cell === null) return undefined;
  if (typeof cell !== "string") return c.numeric ? String(cell) : cell;
  const v = cell.trim();
  if (v === "") return undefined;
  if (c.boolean) {
    const b = v.toLowerCase();
    return TRUE.has(b) ? true : FALSE.has(b) ? false : new BadCell(`${label} must be yes or no`);
  }
  if (c.numeric) return v.replace(/,/g, "");
  if (c.array) {
    if (v.startsWith("[")) {
      try {
        return JSON.parse(v);
      } catch {
        return new BadCell(`${label} must be a list separated by ; or a JSON array`);
      }
    }
    const items = v
      .split(/[;|\n]/)
      .map((s) => s.trim())
      .filter(Boolean);
    if (!c.sqlType.startsWith("bigint") && !c.sqlType.startsWith("integer")) return items;
    return items.every((s) => /^-?\d+$/.test(s)) ? items.map(Number) : new BadCell(`${label} must be whole numbers`);
  }
  if (c.column.dataType === "number") return /^-?\d+$/.test(v) ? Number(v) : v;
  if (c.json) {
    try {
      return JSON.parse(v);
    } catch {
      return new BadCell(`${label} must be valid JSON`);
    }
  }
  return v;
}

// Reference cells may name the row by its label ("Fasteners") instead of its id: resolved in one query per column.
async function resolveReferences(
  tx: Tx,
  meta: ResourceMeta,
  rows: Record<string, unknown>[],
  caller: Caller,
  errors: ImportError[],
): Promise<void> {
  for (const field of meta.def.fields) {
    if (field.kind !== "reference" || !field.reference || field.readOnly) continue;
    const labels = [...new Set(rows.map((r) => r[field.name]).filter((v): v is string => typeof v === "string"))];
    if (labels.length === 0) continue;
    const target = findResource(field.reference.resource);
    if (!target) continue;
    const tm = metaOf(target);
    const scope = readScope(target, caller, sql.raw("t0"));
    const res = await tx.execute(sql`
      select t0.id as id, t0.${ident(field.reference.display)}::text as label from ${ident(tm.table)} t0
      where ${scope ?? sql`true`} and lower(t0.${ident(field.reference.display)}::text) = any(${arrayLiteral(labels.map((l) => l.toLowerCase()))}::text[])`);
    const ids = new Map<string, unknown>();
    for (const r of res.rows as Array<{ id: unknown; label: string }>) ids.set(r.label.toLowerCase(), r.id);
    rows.forEach((row, i) => {
      const v = row[field.name];
      if (typeof v !== "string") return;
      const id = ids.get(v.toLowerCase());
      // The cell leaves the row, so the row's other cells are still checked and reported (as the preview does).
      if (id === undefined) {
        errors.push({ row: i + 1, field: field.name, message: `${field.label} '${v}' does not exist` });
        delete row[field.name];
      } else row[field.name] = id;
    });
  }
}

// The natural keys of the file that name a record the caller can see: one query.
async function existingKeys(
  tx: Tx,
  meta: ResourceMeta,
  caller: Caller,
  key: string,
  rows: Record<string, unknown>[],
): Promise<Set<string>> {
  const values = rows
    .map((r) => r[key])
    .filter((v) => v !== undefined)
    .map(String);
  const existing = new Set<string>();
  if (values.length === 0) return existing;
  const res = await tx.execute(sql`select t0.${ident(key)}::text as k from ${ident(meta.table)} t0
    where ${readScope(meta.def, caller, sql.raw("t0")) ?? sql`true`} and t0.${ident(key)}::text = any(${arrayLiteral(values)}::text[])`);
  for (const r of res.rows as Array<{ k: string }>) existing.add(r.k);
  return existing;
}

export const csvImport = implement(COMMANDS.csv_import, {
  async run(tx, args, caller): Promise<ImportReport> {
    const def = findResource(args.resource);
    if (!def?.route) throw new RestError(404, "PGRST205", `Cannot import into '${args.resource}'`);
    const meta = metaOf(def);
    writeScope(def, caller, "create", sql.raw("t0"));
    if (args.upsert) {
      writeScope(def, caller, "update", sql.raw("t0"));
      if (!def.naturalKey) throw new RestError(400, "PGRST100", `${def.plural} have no unique key to update by`);
    }
    // Headers: column names or field labels, case-insensitive.
    const byHeader = new Map<string, string>();
    for (const f of def.fields) {
      byHeader.set(f.name.toLowerCase(), f.name);
      byHeader.set(f.label.toLowerCase(), f.name);
    }
    const errors: ImportError[] = [];
    const unknown = new Set<string>();
    const labels = new Map(def.fields.map((f) => [f.name, f.label]));
    const rows = args.rows.map((raw, i) => {
      const row: Record<string, unknown> = {};
      for (const [header, cell] of Object.entries(raw)) {
        const name = byHeader.get(header.trim().toLowerCase());
        if (!name) {
          unknown.add(header);
          continue;
        }
        const value = coerce(meta.columns.get(name) as ColumnMeta, labels.get(name) ?? name, cell);
        if (value instanceof BadCell) errors.push({ row: i + 1, field: name, message: value.message });
        else if (value !== undefined) row[name] = value;
      }
      return row;
    });
    if (unknown.size) {
      throw new RestError(
        400,
        "PGRST204",
        `Unknown columns: ${[...unknown].join(", ")}`,
        [...unknown].map((h) => ({ field: h, message: "Not a column of this resource" })),
      );
    }
    await resolveReferences(tx, meta, rows, caller, errors);
    const req: RestRequest = {
      meta,
      caller,
      query: {
        select: [{ kind: "star" }],
        levels: new Map([["", emptyLevel()]]),
        onConflict: args.upsert && def.naturalKey ? [def.naturalKey] : null,
        columns: null,
      },
      prefer: {
        return: "minimal",
        count: null,
        resolution: args.upsert ? "merge-duplicates" : null,
        rollback: false,
      },
      single: false,
      range: null,
      head: false,
    };
    // Upserts: rows whose natural key exists are updates (only the columns the file has), the rest inserts.
    const key = args.upsert ? def.naturalKey : undefined;
    const existing = key ? await existingKeys(tx, meta, caller, key, rows) : new Set<string>();
    const ctx: ImportContext = {
      tx,
      req,
      upsert: args.upsert,
      errors,
      bad: new Set(errors.map((e) => e.row)),
      done: new Set(),
    };
    const inserts: Candidate[] = [];
    const updates: Candidate[] = [];
    const reported = new Set(ctx.bad);
    rows.forEach((row, i) => {
      // A row already reported is still validated, so the report lists all of its problems; it is never written.
      const k = key ? row[key] : undefined;
      if (key && k !== undefined && existing.has(String(k))) {
        const { [key]: _key, ...patch } = row;
        const c = checkUpdate(ctx, i + 1, patch, String(k));
        if (c && !reported.has(i + 1)) updates.push(c);
      } else {
        const c = checkInsert(ctx, i + 1, row);
        if (c && !reported.has(i + 1)) inserts.push(c);
      }
    });
    const dups = await findDuplicates(ctx, inserts);
    await insertRows(
      ctx,
      inserts.filter((c) => !ctx.bad.has(c.row) && !dups.later.has(c.row)),
    );
    if (key) await updateRows(ctx, key, updates);
    await writeLater(
      ctx,
      inserts.filter((c) => dups.later.has(c.row) && !ctx.bad.has(c.row)),
      dups,
    );
    errors.sort((a, b) => a.row - b.row);
    const report: ImportReport = {
      resource: def.name,
      total: rows.length,
      imported: ctx.done.size,
      skipped: ctx.bad.size,
      committed: true,
      errors,
    };
    if (ctx.bad.size && !args.skip_bad_rows) throw new Rollback({ ...report, imported: 0, committed: false });
    return report;
  },
});
