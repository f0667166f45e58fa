import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../db/database.ts";
import type { Caller } from "../rest/access.ts";
import { RestError } from "../rest/rest-error.ts";
import { mayDocument, requireDocumentAccess, requireOwnDocument } from "./access.ts";
import { refuseUnusableLocations, withDefaultLocation } from "./default-location.ts";
import { belowCost, priceDraft, snapshotLines } from "./pricing.ts";
import { withExchangeRate } from "./rates.ts";
import { conflict, invalid, notFound, title } from "./refusals.ts";
import { type DocumentSpec, parentColumn } from "./registry.ts";
import { deleteLines, insertRows, loadLines, lockHeader, type Row, updateRow, writeEvent } from "./store.ts";

// document_save (DESIGN §2.3.1): create a draft or replace one, header and lines; the server snapshots the lines and
// computes every total. The header and line schemas are the resources' own (drizzle-zod, never re-declared).

export type SaveInput = { id?: number; header: Record<string, unknown>; lines: Record<string, unknown>[] };

export type Shape = z.ZodObject<Record<string, z.ZodType>>;

export function parse(schema: Shape, value: unknown, at: string): Row {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data as Row;
  const details = parsed.error.issues.map((i) => ({
    field: [at, ...i.path.map(String)].join("."),
    message: i.message,
  }));
  throw new RestError(422, "validation_failed", details[0]?.message ?? "Invalid document", details);
}

// Built once per type: zod compiles every new schema on its first parse, which was a third of a save's time.
const lineSchemas = new WeakMap<DocumentSpec, Shape>();
function lineSchema(spec: DocumentSpec): Shape {
  let schema = lineSchemas.get(spec);
  if (!schema) {
    schema = (spec.lines.insert as unknown as Shape).partial().extend({ source_line_id: z.number().int().nullish() });
    lineSchemas.set(spec, schema);
  }
  return schema;
}

// A header's user (a delivery instruction's driver) must be an active user of this workspace: users are not
// scoped by the workspace's foreign keys as companies and locations are, so the save says which field is wrong.
export async function refuseOutsiders(tx: Tx, ws: string, spec: DocumentSpec, header: Row): Promise<void> {
  for (const f of spec.header.fields) {
    const v = header[f.name];
    if (f.reference?.resource !== "user" || v == null || v === "") continue;
    const res = await tx.execute(
      sql`select 1 from "user" where workspace_id = ${ws}::uuid and id::text = ${String(v)} and active`,
    );
    if (res.rows.length === 0) throw invalid(`${f.label}: choose an active user of this workspace`, `header.${f.name}`);
  }
  // A buying document's company is a supplier: refused at save, not when it comes to paying (issue 21 §1).
  if (spec.machine.buying && header.company_id != null && header.company_id !== "") {
    const res = await tx.execute(sql`select name, is_supplier from company
      where workspace_id = ${ws}::uuid and id = ${Number(header.company_id)}`);
    const company = res.rows[0] as { name: string; is_supplier: boolean } | undefined;
    if (company && !company.is_supplier) {
      throw invalid(
        `${company.name} is not a supplier: mark it as one on its company page, or choose a supplier`,
        "header.company_id",
      );
    }
  }
}

// What a save changed on the header, for the audit row: { field: [before, after] }.
function changes(before: Row, after: Row, linesBefore: number, linesAfter: number): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(after)) {
    const was = before[k] ?? null;
    if (String(was ?? "") !== String(v ?? "")) out[k] = [was, v ?? null];
  }
  if (linesBefore !== linesAfter) out.lines = [linesBefore, linesAfter];
  return out;
}

export async function saveDraft(tx: Tx, caller: Caller, spec: DocumentSpec, input: SaveInput): Promise<number> {
  const ws = caller.workspaceId as string;
  const plural = spec.machine.plural.toLowerCase();
  requireDocumentAccess(caller, spec, input.id ? "update" : "create", `${input.id ? "change" : "create"} ${plural}`);
  const header = await withExchangeRate(tx, ws, parse(spec.header.insert as unknown as Shape, input.header, "header"));
  await refuseOutsiders(tx, ws, spec, header);
  const schema = lineSchema(spec);
  const given = input.lines.map((l, i) => parse(schema, l, `lines.${i}`));

  let before: Row | null = null;
  let linked = new Set<number>();
  let linesBefore = 0;
  if (input.id) {
    before = await lockHeader(tx, spec, ws, input.id);
    if (!before) throw notFound(spec, input.id);
    requireOwnDocument(caller, spec, before, "change");
    if (before.status !== spec.machine.initial) {
      const status = spec.machine.statuses[String(before.status)]?.label.toLowerCase() ?? before.status;
      throw conflict(`Only a draft ${title(spec)} can be changed; this one is ${status}`);
    }
    const old = await loadLines(tx, spec, ws, input.id);
    linesBefore = old.length;
    linked = new Set(old.map((l) => Number(l.source_line_id)).filter((n) => n > 0));
  }
  // A line keeps the source line it was made from (document_convert); it cannot claim another.
  for (const [i, l] of given.entries()) {
    if (l.source_line_id != null && !linked.has(Number(l.source_line_id))) {
      throw invalid(`Line ${i + 1} links to a line this ${title(spec)} was not made from`, `lines.${i}.source_line_id`);
    }
  }
  // A line sells, delivers or returns something: a quantity of nothing or less is a typo (a return is its own
  // document, not a negative line).
  for (const [i, l] of given.entries()) {
    const qty = Number(l.qty);
    if (l.qty !== undefined && l.qty !== null && Number.isFinite(qty) && qty <= 0) {
      throw invalid(`Line ${i + 1}: the quantity must be more than 0`, `lines.${i}.qty`);
    }
  }
  // A delivery or receipt names only ordinary locations; one with none takes each product's usual location, else
  // the workspace's default warehouse (a new draft's header only: a clerk may empty a saved one's) (issue 21 §1).
  await refuseUnusableLocations(tx, ws, spec, header, given);
  const placed = await withDefaultLocation(tx, ws, spec, header, given);
  const placedHeader = input.id ? header : placed.header;
  const prepared = spec.prepareSave
    ? await spec.prepareSave(tx, caller, spec, { id: input.id ?? null, header: placedHeader, lines: placed.lines })
    : { header: placedHeader, lines: placed.lines };
  const lines = await snapshotLines(tx, ws, prepared.lines);
  const low = spec.machine.buying ? null : belowCost(lines);
  if (low && !mayDocument(caller, spec, "approve")) {
    throw invalid(
      `Line ${low.n} is priced below its cost of ${low.cost}; someone who may approve ${plural} must save it`,
      `lines.${low.n - 1}.unit_price`,
    );
  }
  const priced = (spec.price ?? priceDraft)(prepared.header, lines);
  let docId: number;
  if (before && input.id) {
    docId = input.id;
    await updateRow(tx, spec.header, ws, docId, priced.header);
    await deleteLines(tx, spec, ws, docId);
  } else {
    const [row] = await insertRows(
      tx,
      spec.header,
      [{ ...priced.header, workspace_id: ws, status: spec.machine.initial, created_by: caller.userId }],
      true,
    );
    docId = Number(row.id);
  }
  // The read-only line columns the type's prepareSave decided (a purchase line's supplier discount): a client's
  // lines never carry them (parsed by the insert schema), so any present came from the server.
  await insertLines(tx, spec, ws, docId, priced.lines, decidedColumns(spec, prepared.lines));
  await writeEvent(tx, caller, {
    type: spec.machine.type,
    docId,
    action: before ? "save" : "create",
    from: before ? String(before.status) : null,
    to: before ? String(before.status) : spec.machine.initial,
    changes: before ? changes(before, priced.header, linesBefore, priced.lines.length) : undefined,
  });
  return docId;
}

// The read-only line columns a type's own code decided on these lines (prepareSave, prepareConvert): a client's lines
// never carry them (parsed by the insert schema), so any present came from the server.
const KEYS = new Set(["id", "line_no", "created_at", "updated_at"]);
export const decidedColumns = (spec: DocumentSpec, lines: readonly Row[]): string[] =>
  spec.lines.fields
    .filter((f) => f.readOnly && !KEYS.has(f.name) && f.name !== parentColumn(spec))
    .filter((f) => lines.some((l) => l[f.name] !== undefined))
    .map((f) => f.name);

// Every line gets the same columns (a multi-row insert), numbered from 1.
// decided: read-only line columns the server set on these lines (saveDraft's prepareSave), written too.
export async function insertLines(
  tx: Tx,
  spec: DocumentSpec,
  ws: string,
  docId: number,
  lines: Row[],
  decided: readonly string[] = [],
) {
  const columns = [
    "product_id",
    "service_id",
    "sku",
    "description",
    "unit",
    "qty",
    "unit_price",
    "unit_cost",
    "discount_percent",
    "tax_code",
    "line_total",
    "net_amount",
    "source_line_id",
  ];
  // And the columns a type adds to its lines (a delivery line's location).
  const shape = Object.keys((spec.lines.insert as unknown as { shape: object }).shape);
  for (const c of shape) if (!columns.includes(c) && c !== parentColumn(spec) && c !== "line_no") columns.push(c);
  for (const c of decided) if (!columns.includes(c)) columns.push(c);
  const rows = lines.map((l, i) => ({
    workspace_id: ws,
    [parentColumn(spec)]: docId,
    line_no: i + 1,
    ...Object.fromEntries(columns.map((c) => [c, l[c] ?? null])),
  }));
  await insertRows(tx, spec.lines, rows);
}
