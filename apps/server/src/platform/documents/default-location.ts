import { sql } from "drizzle-orm";
import type { Tx } from "../db/database.ts";
import type { DocumentSpec } from "./registry.ts";
import { documentSettings } from "./settings.ts";
import type { Row } from "./store.ts";

// Issue 21 §1 "Locations": a delivery or a receipt that names no location (its order named none) takes the
// workspace's default warehouse (a document setting), else its only ordinary location — a workspace with one
// warehouse is never asked. In transit and On loan (system_location) are never chosen: goods are not sent from or
// received into them. null: the clerk chooses, and the submit says which line lacks one.
export async function fallbackLocation(tx: Tx, ws: string): Promise<number | null> {
  const chosen = (await documentSettings(tx, ws)).default_location_id;
  if (chosen != null) return chosen;
  const res = await tx.execute(sql`select l.id from location l where l.workspace_id = ${ws}::uuid and l.active
      and not exists (select 1 from system_location s where s.workspace_id = l.workspace_id and s.location_id = l.id)
    order by l.id limit 2`);
  return res.rows.length === 1 ? Number((res.rows[0] as { id: number | string }).id) : null;
}

const takesLocation = (spec: DocumentSpec): boolean =>
  "location_id" in ((spec.header.insert as unknown as { shape?: object }).shape ?? {});

// A new draft's header with the fallback location, when its type has one and neither it nor a line names one.
export async function withDefaultLocation(
  tx: Tx,
  ws: string,
  spec: DocumentSpec,
  header: Row,
  lines: readonly Row[],
): Promise<Row> {
  if (!takesLocation(spec) || header.location_id != null || lines.some((l) => l.location_id != null)) return header;
  const id = await fallbackLocation(tx, ws);
  return id == null ? header : { ...header, location_id: id };
}
