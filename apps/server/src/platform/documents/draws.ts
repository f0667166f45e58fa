import { settleStatus } from "@workmetrics/domain/documents/machine";
import {
  checkOverflow,
  QTY_FIELDS,
  type QtyField,
  recomputeQuantities,
  type SourceLine,
} from "@workmetrics/domain/documents/quantities";
import { sql } from "drizzle-orm";
import type { Tx } from "../db/database.ts";
import type { Caller } from "../rest/access.ts";
import { metaOf } from "../rest/resource-meta.ts";
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

// The drawn quantities a line table has (a sales order's lines: delivered, billed, returned; an invoice's: credited).
const drawnColumns = (spec: DocumentSpec) =>
  (Object.keys(QTY_FIELDS) as QtyField[]).filter((f) => metaOf(spec.lines).columns.has(f));

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

// Locks the source header, then its lines (always in this order), and answers both (each line with the line it was
// made from).
async function lockSource(
  tx: Tx,
  ws: string,
  source: DocumentSpec,
  sourceId: number,
): Promise<{ header: Row | null; lines: Row[] }> {
  const header = await lockHeader(tx, source, ws, sourceId);
  const drawn = drawnColumns(source).map((f) => sql`, ${id(f)}::text as ${id(f)}`);
  const res = await tx.execute(sql`select id, qty::text as qty ${sql.join(drawn, sql``)}, source_line_id
    from ${id(source.lines.name)} where workspace_id = ${ws}::uuid and ${id(parentColumn(source))} = ${sourceId}
    order by line_no for update`);
  return { header, lines: res.rows as Row[] };
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
export async function checkDraw(tx: Tx, caller: Caller, spec: DocumentSpec, doc: Locked): Promise<void> {
  const from = drawSource(spec, doc);
  if (!from) return;
  const ws = caller.workspaceId as string;
  const field = from.made.draws;
  const locked = await lockSource(tx, ws, from.source, from.sourceId);
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
    const mid = await lockSource(tx, ws, documentSpec(String(header.source_type)), Number(header.source_id));
    const onward = new Map(
      mid.lines.map((l) => [String(l.id), l.source_line_id == null ? null : String(l.source_line_id)]),
    );
    through = new Map([...through].map(([k, v]) => [k, v == null ? null : (onward.get(v) ?? null)]));
    header = mid.header as Row;
  }
  if (!draws(header.source_type) || header.source_id == null) return;
  const up = documentSpec(String(header.source_type));
  const upLocked = await lockSource(tx, ws, up, Number(header.source_id));
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
}

// After the status is written: the drawn quantity of every source line is the sum over the submitted documents of
// every type that draws it; then the source settles its status (a sales order becomes To Bill when all is delivered).
// When this type draws the same quantity from the source's own source too (an invoice bills a sales order directly
// or through a delivery order), that one is recomputed as well, so the order sees what its deliveries' invoices bill.
export async function recomputeDraw(tx: Tx, caller: Caller, spec: DocumentSpec, doc: Locked): Promise<void> {
  const from = drawSource(spec, doc);
  if (!from) return;
  const by = { type: spec.machine.type, id: Number(doc.header.id), number: doc.header.number ?? null };
  const source = await recomputeSource(tx, caller, from.source, from.sourceId, from.made.draws, by);
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
): Promise<Row> {
  const ws = caller.workspaceId as string;
  const type = source.machine.type;
  const locked = await lockSource(tx, ws, source, sourceId);
  const sourceLines = locked.lines;
  const ids = `{${sourceLines.map((l) => l.id).join(",")}}`;
  const targets: Array<{ source_line_id: string; qty: string }> = [];
  for (const { spec: t } of drawnBy(type).filter((d) => d.made.draws === field)) {
    const res = await tx.execute(sql`select l.source_line_id::text as source_line_id, l.qty::text as qty
      from ${id(t.lines.name)} l join ${id(t.header.name)} h on h.workspace_id = l.workspace_id and h.id = l.${id(parentColumn(t))}
      where l.workspace_id = ${ws}::uuid and l.source_line_id = any(${ids}::bigint[])
        and h.source_type = ${type} and h.source_id = ${sourceId} and ${counted(t)}`);
    targets.push(...(res.rows as typeof targets));
    // Through an intermediate type made from the source, which `t` also draws `field` from (a delivery order made
    // from a delivery instruction delivers the sales order the instruction was made from).
    for (const x of madeFromBy(type)) {
      if (!t.madeFrom?.some((m) => m.from === x.machine.type && m.draws === field)) continue;
      const via = await tx.execute(sql`select xl.source_line_id::text as source_line_id, l.qty::text as qty
        from ${id(t.lines.name)} l
        join ${id(t.header.name)} h on h.workspace_id = l.workspace_id and h.id = l.${id(parentColumn(t))}
        join ${id(x.lines.name)} xl on xl.workspace_id = l.workspace_id and xl.id = l.source_line_id
        join ${id(x.header.name)} xh on xh.workspace_id = xl.workspace_id and xh.id = xl.${id(parentColumn(x))}
        where l.workspace_id = ${ws}::uuid and h.source_type = ${x.machine.type} and ${counted(t)}
          and xh.source_type = ${type} and xh.source_id = ${sourceId} and xl.source_line_id = any(${ids}::bigint[])`);
      targets.push(...(via.rows as typeof targets));
    }
    // Through two: `t` draws from y, y was made from x, x from the source, and `t` draws nothing from x (an invoice
    // of a delivery order made from a delivery instruction made from the sales order).
    for (const x of madeFromBy(type)) {
      if (t.madeFrom?.some((m) => m.from === x.machine.type && m.draws === field)) continue;
      for (const y of madeFromBy(x.machine.type)) {
        if (!t.madeFrom?.some((m) => m.from === y.machine.type && m.draws === field)) continue;
        const via = await tx.execute(sql`select xl.source_line_id::text as source_line_id, l.qty::text as qty
          from ${id(t.lines.name)} l
          join ${id(t.header.name)} h on h.workspace_id = l.workspace_id and h.id = l.${id(parentColumn(t))}
          join ${id(y.lines.name)} yl on yl.workspace_id = l.workspace_id and yl.id = l.source_line_id
          join ${id(y.header.name)} yh on yh.workspace_id = yl.workspace_id and yh.id = yl.${id(parentColumn(y))}
          join ${id(x.lines.name)} xl on xl.workspace_id = yl.workspace_id and xl.id = yl.source_line_id
          join ${id(x.header.name)} xh on xh.workspace_id = xl.workspace_id and xh.id = xl.${id(parentColumn(x))}
          where l.workspace_id = ${ws}::uuid and h.source_type = ${y.machine.type} and ${counted(t)}
            and yh.source_type = ${x.machine.type} and xh.source_type = ${type} and xh.source_id = ${sourceId}
            and xl.source_line_id = any(${ids}::bigint[])`);
        targets.push(...(via.rows as typeof targets));
      }
    }
  }
  const next = recomputeQuantities(sourceLines.map(asSourceLine), targets, field);
  // One statement for every line (a 20-line order was 20 round trips).
  if (next.length) {
    await tx.execute(sql`update ${id(source.lines.name)} l set ${id(field)} = v.qty
      from unnest(${`{${next.map((l) => l.id).join(",")}}`}::bigint[], ${`{${next.map((l) => l[field]).join(",")}}`}::numeric[])
        as v(id, qty)
      where l.workspace_id = ${ws}::uuid and l.id = v.id`);
  }
  const header = locked.header as Row; // locked above; only its lines changed
  const lines = await loadLines(tx, source, ws, sourceId);
  const status = String(header.status);
  const settled = settleStatus(source.machine, { status, today: await today(tx), header, lines }, status);
  if (settled === status) return header;
  await updateRow(tx, source.header, ws, sourceId, { status: settled });
  await writeEvent(tx, caller, { type, docId: sourceId, action: "settle", from: status, to: settled, changes: { by } });
  return { ...header, status: settled };
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
