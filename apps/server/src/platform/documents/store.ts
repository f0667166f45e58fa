import {
  amendedNumber,
  formatNumber,
  isNumberedType,
  numberYear,
  prefixFor,
} from "@workmetrics/domain/documents/numbering";
import type { ResourceDef } from "@workmetrics/domain/resources";
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../db/database.ts";
import type { Caller } from "../rest/access.ts";
import { runRead } from "../rest/engine.ts";
import { parsePrefer, parseQuery } from "../rest/query-parse.ts";
import { metaOf } from "../rest/resource-meta.ts";
import { param } from "../rest/sql-compile.ts";
import { type DocumentSpec, parentColumn } from "./registry.ts";
import { documentSettings } from "./settings.ts";

// The engine's reads and writes of document rows. Values travel as the wire does (decimal strings, ISO dates), so
// guards and totals see what a client sees; every statement names the workspace (first wall) under RLS (second).

export type Row = Record<string, unknown>;

const id = (name: string) => sql.identifier(name);

// Numbers and dates as text: decimal.js reads the one, guards compare the other as YYYY-MM-DD.
function selectList(def: ResourceDef): SQL {
  const cols = [...metaOf(def).columns.values()].map((c) =>
    c.numeric || c.sqlType === "date" ? sql`${id(c.name)}::text as ${id(c.name)}` : id(c.name),
  );
  return sql.join(cols, sql`, `);
}

export async function lockHeader(
  tx: Tx,
  spec: DocumentSpec,
  ws: string,
  docId: number,
  lock = true,
): Promise<Row | null> {
  const res = await tx.execute(sql`select ${selectList(spec.header)} from ${id(spec.header.name)}
    where workspace_id = ${ws}::uuid and id = ${docId} ${lock ? sql`for update` : sql``}`);
  return (res.rows[0] as Row | undefined) ?? null;
}

export async function loadLines(tx: Tx, spec: DocumentSpec, ws: string, docId: number): Promise<Row[]> {
  const res = await tx.execute(sql`select ${selectList(spec.lines)} from ${id(spec.lines.name)}
    where workspace_id = ${ws}::uuid and ${id(parentColumn(spec))} = ${docId} order by line_no`);
  return res.rows as Row[];
}

// current_date is the transaction's start date, so a transaction asks once (a submit reads it several times).
const todays = new WeakMap<object, Promise<string>>();

export function today(tx: Tx): Promise<string> {
  const cached = todays.get(tx);
  if (cached) return cached;
  const asked = tx.execute(sql`select current_date::text as d`).then((res) => (res.rows[0] as { d: string }).d);
  // Only inside a transaction: a pool handle outlives midnight.
  if ("rollback" in tx) todays.set(tx, asked);
  return asked;
}

// A value for `column` of `def`, cast to the column's type.
function value(def: ResourceDef, column: string, v: unknown): SQL {
  if (v === null || v === undefined) return sql`null`;
  const c = metaOf(def).columns.get(column);
  if (!c) throw new Error(`${def.name}.${column} is not a column`);
  return param(c, v instanceof Date ? v.toISOString() : String(v));
}

export async function insertRows(tx: Tx, def: ResourceDef, rows: readonly Row[], returning = false): Promise<Row[]> {
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0]);
  const values = rows.map(
    (r) =>
      sql`(${sql.join(
        columns.map((c) => value(def, c, r[c])),
        sql`, `,
      )})`,
  );
  const res = await tx.execute(sql`insert into ${id(def.name)} (${sql.join(columns.map(id), sql`, `)})
    values ${sql.join(values, sql`, `)} ${returning ? sql`returning id` : sql``}`);
  return res.rows as Row[];
}

export async function updateRow(tx: Tx, def: ResourceDef, ws: string, rowId: number, set: Row): Promise<void> {
  const pairs = Object.entries(set).map(([c, v]) => sql`${id(c)} = ${value(def, c, v)}`);
  await tx.execute(sql`update ${id(def.name)} set ${sql.join(pairs, sql`, `)}, updated_at = now()
    where workspace_id = ${ws}::uuid and id = ${rowId}`);
}

export async function deleteLines(tx: Tx, spec: DocumentSpec, ws: string, docId: number): Promise<void> {
  await tx.execute(sql`delete from ${id(spec.lines.name)}
    where workspace_id = ${ws}::uuid and ${id(parentColumn(spec))} = ${docId}`);
}

// STYLE "Gapless numbers from one counter row": the first of a year inserts the row, every later one waits for the
// row lock and takes next; a rolled-back transaction gives its number back.
export async function takeNumber(tx: Tx, ws: string, type: string, docDate: string): Promise<string> {
  if (!isNumberedType(type)) throw new Error(`The document type ${type} has no number series`);
  const year = numberYear(docDate);
  const res = await tx.execute(sql`
    insert into number_counter (workspace_id, doc_type, year, next) values (${ws}::uuid, ${type}, ${year}, 2)
    on conflict (workspace_id, doc_type, year) do update set next = number_counter.next + 1
    returning next - 1 as n`);
  const { prefixes } = await documentSettings(tx, ws);
  return formatNumber(prefixFor(type, prefixes), year, Number((res.rows[0] as { n: number | string }).n));
}

// The number a draft gets when it leaves draft: the next of its series, or, for the amendment of a cancelled
// document, that document's number with the next suffix (amendedNumber).
export async function numberFor(tx: Tx, ws: string, spec: DocumentSpec, header: Row): Promise<string> {
  if (header.amended_from != null) {
    const original = await lockHeader(tx, spec, ws, Number(header.amended_from), false);
    if (original?.number) return amendedNumber(String(original.number));
  }
  return takeNumber(tx, ws, spec.machine.type, String(header.doc_date));
}

export type DocumentEvent = {
  type: string;
  docId: number;
  action: string;
  from: string | null;
  to: string | null;
  reason?: string | null;
  changes?: unknown;
};

// The audit row, in the same transaction as the change (Documenso).
export async function writeEvent(tx: Tx, caller: Caller, e: DocumentEvent): Promise<void> {
  await tx.execute(sql`insert into document_event
    (workspace_id, doc_type, doc_id, action, from_status, to_status, reason, user_id, changes)
    values (${caller.workspaceId}::uuid, ${e.type}, ${e.docId}, ${e.action}, ${e.from}, ${e.to},
      ${e.reason?.trim() || null}, ${caller.userId}::uuid, ${e.changes === undefined ? null : JSON.stringify(e.changes)}::jsonb)`);
}

// The document as /rest/v1 answers select=*,lines:<type>_line(*) (the caller's read scope applies).
export async function readDocument(tx: Tx, caller: Caller, spec: DocumentSpec, docId: number): Promise<unknown> {
  const query = parseQuery([
    ["select", `*,lines:${spec.lines.name}(*)`],
    ["id", `eq.${docId}`],
    ["lines.order", "line_no.asc"],
  ]);
  const res = await runRead(tx, {
    meta: metaOf(spec.header),
    caller,
    query,
    prefer: parsePrefer(undefined),
    single: true,
    range: null,
    head: false,
  });
  return JSON.parse(res.body ?? "null");
}
