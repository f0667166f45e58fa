import { dec } from "@workmetrics/domain/documents/decimal";
import { settleStatus } from "@workmetrics/domain/documents/machine";
import {
  checkOverflow,
  QTY_FIELDS,
  type QtyField,
  recomputeQuantities,
  type SourceLine,
} from "@workmetrics/domain/documents/quantities";
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../db/database.ts";
import type { Caller } from "../rest/access.ts";
import { conflict, title } from "./refusals.ts";
import { type DocumentSpec, documentSpec, drawnBy, type MadeFrom, madeFromBy, parentColumn } from "./registry.ts";
import { allowanceFor, documentSettings } from "./settings.ts";
import { loadLines, lockHeader, type Row, today, updateRow, writeEvent } from "./store.ts";
import type { Locked } from "./transition.ts";

// ERPNext's status updater on the server (DESIGN §2.3.1, STYLE "Quantities flow back by recomputing"): a submitted
// document that was made from another checks, under the source's locks, that its lines fit in what is left; after
// its status is written, the source lines' quantity is recomputed as the sum over every submitted document that
// draws it, and the source's status is settled from the new figures. Cancel recomputes the same way.

const id = (name: string) => sql.identifier(name);

// A document counts once it has left draft, until it is cancelled.
const counted = (spec: DocumentSpec) => sql`h.status not in (${spec.machine.initial}, 'cancelled')`;

export const asSourceLine = (line: Row): SourceLine => ({
  id: String(line.id),
  qty: String(line.qty),
  ...Object.fromEntries(
    (Object.keys(QTY_FIELDS) as QtyField[]).filter((f) => line[f] != null).map((f) => [f, String(line[f])]),
  ),
});

// The source this document draws from, when its type declares a draw from the source's type.
function drawSource(
  spec: DocumentSpec,
  doc: Locked,
): { made: MadeFrom & { draws: NonNullable<MadeFrom["draws"]> }; source: DocumentSpec; sourceId: number } | null {
  const type = doc.header.source_type;
  const made = spec.madeFrom?.find((m) => m.from === type && m.draws);
  if (!made?.draws || doc.header.source_id == null) return null;
  return {
    made: { ...made, draws: made.draws },
    source: documentSpec(String(type)),
    sourceId: Number(doc.header.source_id),
  };
}

// The sources a submit's check locked (by type and id), handed to the recompute after the status is written: a
// source is locked and read once per transition. Its rows stay locked to the commit, so nothing else changes them.
export type LockedSources = Map<string, { header: Row | null; lines: Row[] }>;

// Locks the source header, then its lines (always in this order), and answers both; one `held` already is reused.
async function lockSource(
  tx: Tx,
  ws: string,
  source: DocumentSpec,
  sourceId: number,
  held?: LockedSources,
): Promise<{ header: Row | null; lines: Row[] }> {
  const key = `${source.machine.type}:${sourceId}`;
  const had = held?.get(key);
  if (had) return had;
  const header = await lockHeader(tx, source, ws, sourceId);
  const locked = { header, lines: await loadLines(tx, source, ws, sourceId, true) };
  held?.set(key, locked);
  return locked;
}

// The type of the document `header`'s own source was made from, if it names one.
async function sourceTypeOf(tx: Tx, ws: string, header: Row): Promise<unknown> {
  if (header.source_type == null || header.source_id == null) return null;
  const mid = await lockHeader(tx, documentSpec(String(header.source_type)), ws, Number(header.source_id), false);
  return mid?.source_type ?? null;
}

// Submit: refuses lines beyond what is left on the source ("Only 4 of 10 are left to deliver on line 1"); when this
// type draws the same quantity from the source's own source too (an invoice of a delivery order bills the sales
// order), beyond what is left there as well, each line counted against the line its source line came from.
// Answers the sources it locked, for recomputeDraw.
export async function checkDraw(tx: Tx, caller: Caller, spec: DocumentSpec, doc: Locked): Promise<LockedSources> {
  const held: LockedSources = new Map();
  const from = drawSource(spec, doc);
  if (!from) return held;
  const ws = caller.workspaceId as string;
  const field = from.made.draws;
  const locked = await lockSource(tx, ws, from.source, from.sourceId, held);
  const sourceLines = locked.lines;
  const requested = doc.lines.map((l) => ({
    source_line_id: l.source_line_id == null ? null : String(l.source_line_id),
    qty: String(l.qty),
  }));
  const allowance = allowanceFor(await documentSettings(tx, ws), field);
  const over = checkOverflow(sourceLines.map(asSourceLine), requested, field, allowance);
  if (over) throw conflict(over, { reason: "overflow", source: { type: from.source.machine.type, id: from.sourceId } });
  let header = locked.header as Row;
  let through = new Map(
    sourceLines.map((l) => [String(l.id), l.source_line_id == null ? null : String(l.source_line_id)]),
  );
  // Through a document this type does not draw from (an invoice of a delivery order made from a delivery
  // instruction bills the sales order the instruction was made from): its lines pass the link on.
  const draws = (type: unknown) => spec.madeFrom?.some((m) => m.from === type && m.draws === field);
  if (!draws(header.source_type) && header.source_id != null && draws(await sourceTypeOf(tx, ws, header))) {
    const mid = await lockSource(tx, ws, documentSpec(String(header.source_type)), Number(header.source_id), held);
    const onward = new Map(
      mid.lines.map((l) => [String(l.id), l.source_line_id == null ? null : String(l.source_line_id)]),
    );
    through = new Map([...through].map(([k, v]) => [k, v == null ? null : (onward.get(v) ?? null)]));
    header = mid.header as Row;
  }
  if (!draws(header.source_type) || header.source_id == null) return held;
  const up = documentSpec(String(header.source_type));
  const upLocked = await lockSource(tx, ws, up, Number(header.source_id), held);
  const upLines = upLocked.lines;
  const mapped = requested.map((r) => ({
    ...r,
    source_line_id: r.source_line_id && (through.get(r.source_line_id) ?? null),
  }));
  const beyond = checkOverflow(upLines.map(asSourceLine), mapped, field, allowance);
  if (beyond) {
    const number = String(upLocked.header?.number ?? "");
    throw conflict(`${beyond} of ${number}`, {
      reason: "overflow",
      source: { type: up.machine.type, id: Number(header.source_id) },
    });
  }
  return held;
}

// After the status is written: the drawn quantity of every source line is the sum over the submitted documents of
// every type that draws it; then the source settles its status (a sales order becomes To Bill when all is delivered).
// When this type draws the same quantity from the source's own source too (an invoice bills a sales order directly
// or through a delivery order), that one is recomputed as well, so the order sees what its deliveries' invoices bill.
// `held`: the sources a submit's checkDraw locked already (a cancel locks them here).
export async function recomputeDraw(
  tx: Tx,
  caller: Caller,
  spec: DocumentSpec,
  doc: Locked,
  held: LockedSources = new Map(),
): Promise<void> {
  const from = drawSource(spec, doc);
  if (!from) return;
  const by = { type: spec.machine.type, id: Number(doc.header.id), number: doc.header.number ?? null };
  const source = await recomputeSource(tx, caller, from.source, from.sourceId, from.made.draws, by, held);
  let upHeader: Row = source;
  const draws = (type: unknown) => spec.madeFrom?.some((m) => m.from === type && m.draws === from.made.draws);
  // Through a document this type does not draw from (see checkDraw).
  if (!draws(source.source_type) && source.source_id != null) {
    const ws = caller.workspaceId as string;
    const mid = await lockHeader(tx, documentSpec(String(source.source_type)), ws, Number(source.source_id), false);
    if (mid && draws(mid.source_type)) upHeader = mid;
  }
  const upstream = draws(upHeader.source_type);
  const source2 = upHeader;
  if (upstream && source2.source_id != null) {
    await recomputeSource(
      tx,
      caller,
      documentSpec(String(source2.source_type)),
      Number(source2.source_id),
      from.made.draws,
      by,
      held,
    );
  }
}

// Σ qty over the counted lines of every type drawing `field` from `source`, linked to its lines directly or through
// the lines of a document made from it (a delivery order's line that came from the order's line); answers its header.
async function recomputeSource(
  tx: Tx,
  caller: Caller,
  source: DocumentSpec,
  sourceId: number,
  field: NonNullable<MadeFrom["draws"]>,
  by: Row,
  held: LockedSources,
): Promise<Row> {
  const ws = caller.workspaceId as string;
  const type = source.machine.type;
  const locked = await lockSource(tx, ws, source, sourceId, held);
  const sourceLines = locked.lines;
  const ids = `{${sourceLines.map((l) => l.id).join(",")}}`;
  // Every way a line can draw, asked in one statement.
  const ways: SQL[] = [];
  for (const { spec: t } of drawnBy(type).filter((d) => d.made.draws === field)) {
    ways.push(sql`select l.source_line_id::text as source_line_id, l.qty::text as qty
      from ${id(t.lines.name)} l join ${id(t.header.name)} h on h.workspace_id = l.workspace_id and h.id = l.${id(parentColumn(t))}
      where l.workspace_id = ${ws}::uuid and l.source_line_id = any(${ids}::bigint[])
        and h.source_type = ${type} and h.source_id = ${sourceId} and ${counted(t)}`);
    // Through an intermediate type made from the source, which `t` also draws `field` from (a delivery order made
    // from a delivery instruction delivers the sales order the instruction was made from).
    for (const x of madeFromBy(type)) {
      if (!t.madeFrom?.some((m) => m.from === x.machine.type && m.draws === field)) continue;
      ways.push(sql`select xl.source_line_id::text as source_line_id, l.qty::text as qty
        from ${id(t.lines.name)} l
        join ${id(t.header.name)} h on h.workspace_id = l.workspace_id and h.id = l.${id(parentColumn(t))}
        join ${id(x.lines.name)} xl on xl.workspace_id = l.workspace_id and xl.id = l.source_line_id
        join ${id(x.header.name)} xh on xh.workspace_id = xl.workspace_id and xh.id = xl.${id(parentColumn(x))}
        where l.workspace_id = ${ws}::uuid and h.source_type = ${x.machine.type} and ${counted(t)}
          and xh.source_type = ${type} and xh.source_id = ${sourceId} and xl.source_line_id = any(${ids}::bigint[])`);
    }
    // Through two: `t` draws from y, y was made from x, x from the source, and `t` draws nothing from x (an invoice
    // of a delivery order made from a delivery instruction made from the sales order).
    for (const x of madeFromBy(type)) {
      if (t.madeFrom?.some((m) => m.from === x.machine.type && m.draws === field)) continue;
      for (const y of madeFromBy(x.machine.type)) {
        if (!t.madeFrom?.some((m) => m.from === y.machine.type && m.draws === field)) continue;
        ways.push(sql`select xl.source_line_id::text as source_line_id, l.qty::text as qty
          from ${id(t.lines.name)} l
          join ${id(t.header.name)} h on h.workspace_id = l.workspace_id and h.id = l.${id(parentColumn(t))}
          join ${id(y.lines.name)} yl on yl.workspace_id = l.workspace_id and yl.id = l.source_line_id
          join ${id(y.header.name)} yh on yh.workspace_id = yl.workspace_id and yh.id = yl.${id(parentColumn(y))}
          join ${id(x.lines.name)} xl on xl.workspace_id = yl.workspace_id and xl.id = yl.source_line_id
          join ${id(x.header.name)} xh on xh.workspace_id = xl.workspace_id and xh.id = xl.${id(parentColumn(x))}
          where l.workspace_id = ${ws}::uuid and h.source_type = ${y.machine.type} and ${counted(t)}
            and yh.source_type = ${x.machine.type} and xh.source_type = ${type} and xh.source_id = ${sourceId}
            and xl.source_line_id = any(${ids}::bigint[])`);
      }
    }
  }
  const targets = ways.length
    ? ((await tx.execute(sql.join(ways, sql` union all `))).rows as Array<{ source_line_id: string; qty: string }>)
    : [];
  const next = recomputeQuantities(sourceLines.map(asSourceLine), targets, field);
  // The lines whose quantity moves, in one statement (a 20-line order was 20 round trips); the locked rows then
  // carry the new figures, so the status settles without reading them again.
  const moved = next.filter((l, i) => !dec(String(l[field])).equals(dec(String(sourceLines[i][field] ?? "0"))));
  if (moved.length) {
    await tx.execute(sql`update ${id(source.lines.name)} l set ${id(field)} = v.qty
      from unnest(${`{${moved.map((l) => l.id).join(",")}}`}::bigint[], ${`{${moved.map((l) => l[field]).join(",")}}`}::numeric[])
        as v(id, qty)
      where l.workspace_id = ${ws}::uuid and l.id = v.id`);
  }
  const lines = sourceLines.map((l, i) => ({ ...l, [field]: next[i][field] }));
  const header = locked.header as Row; // locked above; only its lines changed
  const status = String(header.status);
  const settled = settleStatus(source.machine, { status, today: await today(tx), header, lines }, status);
  const after = settled === status ? header : { ...header, status: settled };
  held.set(`${type}:${sourceId}`, { header: after, lines });
  if (settled === status) return header;
  await updateRow(tx, source.header, ws, sourceId, { status: settled });
  await writeEvent(tx, caller, { type, docId: sourceId, action: "settle", from: status, to: settled, changes: { by } });
  return after;
}

// Cancel: refused while a submitted document draws from this one's lines, naming it.
export async function refuseWhileDrawn(tx: Tx, caller: Caller, spec: DocumentSpec, doc: Locked): Promise<void> {
  const ws = caller.workspaceId as string;
  for (const { spec: t, made } of drawnBy(spec.machine.type)) {
    if (made.indirect) continue;
    const res = await tx.execute(sql`select h.number from ${id(t.header.name)} h
      where h.workspace_id = ${ws}::uuid and h.source_type = ${spec.machine.type} and h.source_id = ${Number(doc.header.id)}
        and ${counted(t)} order by h.id limit 1`);
    const row = res.rows[0] as { number: string | null } | undefined;
    if (row) {
      throw conflict(
        `This ${title(spec)} is ${QTY_FIELDS[made.draws].past} on ${title(t)} ${row.number}: cancel the ${title(t)} first`,
        { reason: "drawn", by: t.machine.type },
      );
    }
  }
}
