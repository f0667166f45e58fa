import { dec } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import { runConvert } from "../../platform/documents/convert.ts";
import { conflict } from "../../platform/documents/refusals.ts";
import { documentSpec, type Effect, type PrepareConvert } from "../../platform/documents/registry.ts";
import { lockDocument, runTransition } from "../../platform/documents/transition.ts";

// Issue 22 "Warehouse": what a pick list does besides its status.

// Made from a sales order or a delivery instruction: each line picked from its own location or the list's (the
// clerk's, else the source's), with the product's bin there, in walking order — location, then bin, then the
// source's order; products without a bin last in their location.
export const binOrder: PrepareConvert = async (tx, caller, _source, draft) => {
  const ws = caller.workspaceId as string;
  const header = { ...draft.header };
  const fallback = header.location_id ?? draft.lines.find((l) => l.location_id != null)?.location_id ?? null;
  if (header.location_id == null && fallback != null) header.location_id = fallback;
  const lines = draft.lines.map((l, i) => ({
    ...l,
    product_id: l.product_id,
    location_id: l.location_id ?? header.location_id ?? null,
    i,
  }));
  const pairs = lines.filter((l) => l.product_id != null && l.location_id != null);
  const bins = new Map<string, string>();
  const names = new Map<number, string>();
  if (pairs.length > 0) {
    const products = `{${pairs.map((l) => Number(l.product_id)).join(",")}}`;
    const locations = `{${pairs.map((l) => Number(l.location_id)).join(",")}}`;
    const res = await tx.execute(sql`select b.product_id, b.location_id, b.bin from product_bin b
      where b.workspace_id = ${ws}::uuid
        and (b.product_id, b.location_id) in (select * from unnest(${products}::bigint[], ${locations}::bigint[]))`);
    for (const r of res.rows as Array<{ product_id: number | string; location_id: number | string; bin: string }>) {
      bins.set(`${Number(r.product_id)}:${Number(r.location_id)}`, r.bin);
    }
    const locs = await tx.execute(sql`select id, name from location where workspace_id = ${ws}::uuid
      and id = any(${locations}::bigint[])`);
    for (const r of locs.rows as Array<{ id: number | string; name: string }>) names.set(Number(r.id), r.name);
  }
  const withBins = lines.map((l) => ({
    ...l,
    bin: l.product_id != null && l.location_id != null ? (bins.get(`${l.product_id}:${l.location_id}`) ?? null) : null,
  }));
  const where = (l: (typeof withBins)[number]) => names.get(Number(l.location_id)) ?? "";
  withBins.sort(
    (a, b) =>
      where(a).localeCompare(where(b)) ||
      (a.bin == null ? 1 : 0) - (b.bin == null ? 1 : 0) ||
      String(a.bin ?? "").localeCompare(String(b.bin ?? ""), undefined, { numeric: true }) ||
      a.i - b.i,
  );
  return { header, lines: withBins.map(({ i: _, ...l }) => l) };
};

// Finish: the delivery order draft made from the pick list's source, through the engine's conversion, with the
// quantities picked (lines with nothing picked are left for another pick); a delivery instruction still released is
// marked picked first (a delivery order is made from a picked one). The draft's id is kept on the pick list.
const finish: Effect = async (tx, caller, _spec, doc) => {
  const sourceType = String(doc.header.source_type ?? "");
  const sourceId = Number(doc.header.source_id);
  if (sourceType !== "sales_order" && sourceType !== "delivery_instruction") {
    throw conflict("This pick list was not made from a sales order or a delivery instruction");
  }
  const source = documentSpec(sourceType);
  if (sourceType === "delivery_instruction") {
    const di = await lockDocument(tx, caller, source, sourceId);
    if (di.snapshot.status === "released") {
      await runTransition(tx, caller, source, { id: sourceId, action: "pick" });
    }
  }
  const lines = doc.lines
    .filter((l) => l.source_line_id != null && dec(String(l.qty_picked ?? "0")).greaterThan(0))
    .map((l) => ({ line_id: Number(l.source_line_id), qty: String(l.qty_picked) }));
  const header: Record<string, unknown> = {};
  if (doc.header.location_id != null) header.location_id = Number(doc.header.location_id);
  const made = await runConvert(tx, caller, source, documentSpec("delivery_order"), { id: sourceId, lines, header });
  await tx.execute(sql`update pick_list set delivery_order_id = ${made}, updated_at = now()
    where workspace_id = ${caller.workspaceId}::uuid and id = ${Number(doc.header.id)}`);
};

export const PICK_LIST_EFFECTS = { finish } as const;
