import { sql } from "drizzle-orm";
import type { Tx } from "../db/database.ts";
import { invalid } from "./refusals.ts";
import type { DocumentSpec } from "./registry.ts";
import { documentSettings } from "./settings.ts";
import type { Row } from "./store.ts";

// Issue 21 §1 "Locations": a delivery or a receipt that names no location takes its order's, else each product's
// usual location (product.usual_location_id), else the workspace's default warehouse (a document setting), else its
// only ordinary location — a workspace with one warehouse is never asked. In transit and On loan (system_location)
// are never chosen: goods are not sent from or received into them. null: the clerk chooses, and the submit says
// which line lacks one.
export async function fallbackLocation(tx: Tx, ws: string): Promise<number | null> {
  const chosen = (await documentSettings(tx, ws)).default_location_id;
  if (chosen != null) return chosen;
  const res = await tx.execute(sql`select l.id from location l where l.workspace_id = ${ws}::uuid and l.active
      and not exists (select 1 from system_location s where s.workspace_id = l.workspace_id and s.location_id = l.id)
    order by l.id limit 2`);
  return res.rows.length === 1 ? Number((res.rows[0] as { id: number | string }).id) : null;
}

const shapeOf = (def: DocumentSpec["header"]): object => (def.insert as unknown as { shape?: object }).shape ?? {};
const takesLocation = (spec: DocumentSpec): boolean => "location_id" in shapeOf(spec.header);
const linesTakeLocation = (spec: DocumentSpec): boolean => "location_id" in shapeOf(spec.lines);

// Each product's usual location, when it is an active ordinary one (a location made inactive, or a system one, is
// not where goods go).
async function usualLocations(tx: Tx, ws: string, productIds: readonly number[]): Promise<Map<number, number>> {
  if (productIds.length === 0) return new Map();
  const res = await tx.execute(sql`select p.id, p.usual_location_id from product p
      join location l on l.workspace_id = p.workspace_id and l.id = p.usual_location_id and l.active
    where p.workspace_id = ${ws}::uuid and p.id = any(${`{${productIds.join(",")}}`}::bigint[])
      and not exists (select 1 from system_location s where s.workspace_id = l.workspace_id and s.location_id = l.id)`);
  return new Map(
    (res.rows as Array<{ id: number | string; usual_location_id: number | string }>).map((r) => [
      Number(r.id),
      Number(r.usual_location_id),
    ]),
  );
}

// A draft's header and lines with the locations nothing chose filled in: when its type has a location and its header
// names none, a goods line without one takes its product's usual location (when its lines have a location), and the
// header the fallback when a line is still without one. What the order or the clerk chose is kept.
export async function withDefaultLocation(
  tx: Tx,
  ws: string,
  spec: DocumentSpec,
  header: Row,
  lines: readonly Row[],
): Promise<{ header: Row; lines: Row[] }> {
  if (!takesLocation(spec) || header.location_id != null) return { header, lines: [...lines] };
  let placed = [...lines];
  if (linesTakeLocation(spec)) {
    const open = lines.filter((l) => l.location_id == null && l.product_id != null).map((l) => Number(l.product_id));
    const usual = await usualLocations(tx, ws, [...new Set(open)]);
    placed = lines.map((l) =>
      l.location_id == null && l.product_id != null && usual.has(Number(l.product_id))
        ? { ...l, location_id: usual.get(Number(l.product_id)) }
        : l,
    );
  }
  const goods = placed.filter((l) => l.product_id != null);
  if (goods.length > 0 && goods.every((l) => l.location_id != null)) return { header, lines: placed };
  const id = await fallbackLocation(tx, ws);
  return { header: id == null ? header : { ...header, location_id: id }, lines: placed };
}

// The locations a draft names, refused at their field when one is In transit or On loan (system_location) or not
// the workspace's: goods are not sent from, received into or ordered to them.
export async function refuseUnusableLocations(
  tx: Tx,
  ws: string,
  spec: DocumentSpec,
  header: Row,
  lines: readonly Row[],
): Promise<void> {
  const named: Array<{ id: number; field: string }> = [];
  if (takesLocation(spec) && header.location_id != null) {
    named.push({ id: Number(header.location_id), field: "header.location_id" });
  }
  if (linesTakeLocation(spec)) {
    for (const [i, l] of lines.entries()) {
      if (l.location_id != null) named.push({ id: Number(l.location_id), field: `lines.${i}.location_id` });
    }
  }
  if (named.length === 0) return;
  const ids = `{${[...new Set(named.map((n) => n.id))].join(",")}}`;
  const res = await tx.execute(sql`select l.id, l.name, l.active, s.kind from location l
      left join system_location s on s.workspace_id = l.workspace_id and s.location_id = l.id
    where l.workspace_id = ${ws}::uuid and l.id = any(${ids}::bigint[])`);
  const found = new Map(
    (res.rows as Array<{ id: number | string; name: string; active: boolean; kind: string | null }>).map((r) => [
      Number(r.id),
      r,
    ]),
  );
  for (const n of named) {
    const line = n.field.startsWith("lines.") ? `Line ${Number(n.field.split(".")[1]) + 1}: ` : "";
    const row = found.get(n.id);
    if (!row) throw invalid(line ? `${line}there is no such location` : "There is no such location", n.field);
    if (row.kind) {
      const what = `goods are not sent from or received into ${row.name}; choose a warehouse`;
      throw invalid(line ? `${line}${what}` : `${what[0].toUpperCase()}${what.slice(1)}`, n.field);
    }
  }
}
