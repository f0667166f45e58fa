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
import { auditedChanges } from "./as-workspace.ts";
import { type DocumentSpec, parentColumn } from "./registry.ts";
import { knownPrefixes, primeSettings, readPrefixes, settingsJson, settingsKnown } from "./settings.ts";

// The engine's reads and writes of document rows. Values travel as the wire does (decimal strings, ISO dates), so
// guards and totals see what a client sees; every statement names the workspace (first wall) under RLS (second).

export type Row = Record<string, unknown>;

const id = (name: string) => sql.identifier(name);

// Numbers and dates as text: decimal.js reads the one, guards compare the other as YYYY-MM-DD. Built once per
// table: every command reads a header and its lines.
const selectLists = new WeakMap<ResourceDef, SQL>();
function selectList(def: ResourceDef): SQL {
  let list = selectLists.get(def);
  if (!list) {
    const cols = [...metaOf(def).columns.values()].map((c) =>
      c.numeric || c.sqlType === "date" ? sql`${id(c.name)}::text as ${id(c.name)}` : id(c.name),
    );
    list = sql.join(cols, sql`, `);
    selectLists.set(def, list);
  }
  return list;
}

// current_date is the transaction's start date, so a transaction asks once (a submit reads it several times).
const todays = new WeakMap<object, Promise<string>>();
const TODAY = "$today";
const SETTINGS = "$settings";

export async function lockHeader(
  tx: Tx,
  spec: DocumentSpec,
  ws: string,
  docId: number,
  lock = true,
): Promise<Row | null> {
  // The transaction's date and the workspace's document settings ride along the first read (two round trips less
  // on every command).
  const dated = "rollback" in tx && !todays.has(tx);
  const settled = "rollback" in tx && !settingsKnown(tx, ws);
  const res = await tx.execute(sql`select ${selectList(spec.header)}
      ${dated ? sql`, current_date::text as ${id(TODAY)}` : sql``}
      ${settled ? sql`, ${settingsJson(ws)} as ${id(SETTINGS)}` : sql``}
    from ${id(spec.header.name)} where workspace_id = ${ws}::uuid and id = ${docId} ${lock ? sql`for update` : sql``}`);
  const row = res.rows[0] as Row | undefined;
  if (!row) return null;
  if (dated) {
    todays.set(tx, Promise.resolve(String(row[TODAY])));
    delete row[TODAY];
  }
  if (settled) {
    primeSettings(tx, ws, row[SETTINGS]);
    delete row[SETTINGS];
  }
  return row;
}

// A document's lines in their order; `lock`: each row locked too (a source whose drawn quantities a submit writes).
export async function loadLines(tx: Tx, spec: DocumentSpec, ws: string, docId: number, lock = false): Promise<Row[]> {
  const res = await tx.execute(sql`select ${selectList(spec.lines)} from ${id(spec.lines.name)}
    where workspace_id = ${ws}::uuid and ${id(parentColumn(spec))} = ${docId} order by line_no
    ${lock ? sql`for update` : sql``}`);
  return res.rows as Row[];
}

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
  const meta = metaOf(def).columns;
  // Many rows (a document's lines) travel as one JSON parameter that the table's own row type reads, each value by
  // its column's input function as the casts below do: 20 lines of 16 columns were 320 parameters to build and send.
  if (rows.length > 1 && columns.every((c) => meta.has(c) && !meta.get(c)?.sqlType.startsWith("json"))) {
    const json = rows.map((r) =>
      Object.fromEntries(
        columns.map((c) => [c, r[c] == null ? null : r[c] instanceof Date ? r[c].toISOString() : String(r[c])]),
      ),
    );
    const list = sql.join(columns.map(id), sql`, `);
    const res = await tx.execute(sql`insert into ${id(def.name)} (${list})
      select ${list} from json_populate_recordset(null::${id(def.name)}, ${JSON.stringify(json)}::json)
      ${returning ? sql`returning id` : sql``}`);
    return res.rows as Row[];
  }
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

// `column = value, …` for an update of `def`, each value cast to its column's type.
export const assignments = (def: ResourceDef, set: Row): SQL =>
  sql.join(
    Object.entries(set).map(([c, v]) => sql`${id(c)} = ${value(def, c, v)}`),
    sql`, `,
  );

export async function updateRow(tx: Tx, def: ResourceDef, ws: string, rowId: number, set: Row): Promise<void> {
  await tx.execute(sql`update ${id(def.name)} set ${assignments(def, set)}, updated_at = now()
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
  // The workspace's prefixes come in the same round trip unless this transaction has read its settings already.
  const known = await knownPrefixes(tx, ws);
  const res = await tx.execute(sql`with n as (
      insert into number_counter (workspace_id, doc_type, year, next) values (${ws}::uuid, ${type}, ${year}, 2)
      on conflict (workspace_id, doc_type, year) do update set next = number_counter.next + 1
      returning next - 1 as n)
    select n.n ${known ? sql`` : sql`, (select s.prefixes from document_setting s where s.workspace_id = ${ws}::uuid) as prefixes`}
    from n`);
  const row = res.rows[0] as { n: number | string; prefixes?: unknown };
  return formatNumber(prefixFor(type, known ?? readPrefixes(row.prefixes)), year, Number(row.n));
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

// The audit row, in the same transaction as the change (Documenso). While a submit's number is pending
// (late-number.ts) every row waits and is written in the statement that takes it, in the order written: some carry
// the number, and the others cost no round trip of their own.
export async function writeEvent(tx: Tx, caller: Caller, e: DocumentEvent): Promise<void> {
  const waiting = pendingWrites.get(tx);
  if (waiting) {
    waiting.events.push({ caller, event: e });
    return;
  }
  await tx.execute(sql`insert into document_event ${EVENT_COLUMNS} values ${eventRow(caller, e)}`);
}

const EVENT_COLUMNS = sql`(workspace_id, doc_type, doc_id, action, from_status, to_status, reason, user_id, changes)`;

// One audit row's values; `number`: the SQL of the number that takes the pending one's place in its changes.
export function eventRow(caller: Caller, e: DocumentEvent, number?: SQL): SQL {
  const audited = auditedChanges(caller, e); // acting for another workspace says from where (as-workspace.ts)
  const changes = audited === undefined ? null : JSON.stringify(audited);
  return sql`(${caller.workspaceId}::uuid, ${e.type}, ${e.docId}, ${e.action}, ${e.from}, ${e.to},
      ${e.reason?.trim() || null}, ${caller.userId}::uuid, ${withNumber(changes, number)}::jsonb)`;
}

export const eventInsert = (rows: SQL[]): SQL =>
  sql`insert into document_event ${EVENT_COLUMNS} values ${sql.join(rows, sql`, `)}`;

// ---- a number taken last (late-number.ts) ------------------------------------------------------------------------
// While a submit's number is pending, its effects see PENDING_NUMBER where the number goes; the journal entries and
// audit rows that carry it wait here, per transaction, and are written with the number in the statement that takes
// it, the submit's last.

export const PENDING_NUMBER = "#number#";

export type PendingWrites = {
  events: Array<{ caller: Caller; event: DocumentEvent }>;
  entries: Array<(number: SQL, name: string) => SQL>;
};

const pendingWrites = new WeakMap<object, PendingWrites>();

export const pendingOf = (tx: Tx): PendingWrites | undefined => pendingWrites.get(tx);

// Runs `fn` with this transaction's pending writes collected in a list of its own (a command inside another's
// effect keeps its own), then restores the outer list.
export async function collectingPending<T>(tx: Tx, fn: (pending: PendingWrites) => Promise<T>): Promise<T> {
  const outer = pendingWrites.get(tx);
  const mine: PendingWrites = { events: [], entries: [] };
  pendingWrites.set(tx, mine);
  try {
    return await fn(mine);
  } finally {
    if (outer) pendingWrites.set(tx, outer);
    else pendingWrites.delete(tx);
  }
}

// A text that may hold the pending number, with `number` in its place when given.
export const withNumber = (text: string | null, number?: SQL): SQL =>
  number && text?.includes(PENDING_NUMBER) ? sql`replace(${text}::text, ${PENDING_NUMBER}, ${number})` : sql`${text}`;

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
