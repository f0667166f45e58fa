import type { SystemLocationKind } from "@workmetrics/domain/db/inventory-schema";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { conflict } from "../../platform/documents/refusals.ts";

// Issue 11: each workspace's transit and on-loan locations, made the first time a transfer is dispatched or a loan
// lent (a workspace that never lends has none). system_location marks them: its foreign key keeps them from being
// deleted, and documents refuse to sell from, lend from or transfer to them.

const MADE: Record<SystemLocationKind, { code: string; name: string; address: string }> = {
  transit: { code: "TRANSIT", name: "In transit", address: "Goods on their way between two locations" },
  on_loan: { code: "ON-LOAN", name: "On loan", address: "Goods lent to customers" },
};

export async function systemLocationId(tx: Tx, ws: string, kind: SystemLocationKind): Promise<number> {
  const find = async () => {
    const res = await tx.execute(sql`select location_id from system_location
      where workspace_id = ${ws}::uuid and kind = ${kind}`);
    const row = res.rows[0] as { location_id: number | string } | undefined;
    return row ? Number(row.location_id) : null;
  };
  const found = await find();
  if (found != null) return found;
  // Two first transfers of a workspace at once make one transit location: the second waits here, then finds it.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`system_location:${ws}`}))`);
  const again = await find();
  if (again != null) return again;
  const made = MADE[kind];
  // A clerk's own location may already have the code: the next free one (ON-LOAN-2) is taken.
  const taken = await tx.execute(sql`select code from location
    where workspace_id = ${ws}::uuid and (code = ${made.code} or code like ${`${made.code}-%`})`);
  const codes = new Set((taken.rows as Array<{ code: string }>).map((r) => r.code));
  let code = made.code;
  for (let n = 2; codes.has(code); n++) code = `${made.code}-${n}`;
  const res = await tx.execute(sql`insert into location (workspace_id, code, name, address)
    values (${ws}::uuid, ${code}, ${made.name}, ${made.address}) returning id`);
  const id = Number((res.rows[0] as { id: number | string }).id);
  await tx.execute(
    sql`insert into system_location (workspace_id, kind, location_id) values (${ws}::uuid, ${kind}, ${id})`,
  );
  return id;
}

// A document's ordinary locations must not be a system one: refused naming the location and what it holds.
export async function refuseSystemLocations(
  tx: Tx,
  ws: string,
  locations: ReadonlyArray<{ id: unknown; field: string }>,
  verb: string,
): Promise<void> {
  const ids = locations.filter((l) => l.id != null).map((l) => Number(l.id));
  if (ids.length === 0) return;
  const res = await tx.execute(sql`select s.location_id, s.kind, l.name from system_location s
    join location l on l.workspace_id = s.workspace_id and l.id = s.location_id
    where s.workspace_id = ${ws}::uuid and s.location_id = any(${`{${ids.join(",")}}`}::bigint[]) limit 1`);
  const row = res.rows[0] as { location_id: number | string; kind: SystemLocationKind; name: string } | undefined;
  if (!row) return;
  const holds = row.kind === "transit" ? "goods between two locations" : "goods lent to customers";
  throw conflict(`${row.name} holds ${holds}; goods cannot be ${verb} it — choose another location`, {
    reason: "system_location",
    location_id: Number(row.location_id),
  });
}

// The unit cost of each line's goods: what they left their location at (the document's own move out of it), else
// the product's cost now.
export async function outCosts(
  tx: Tx,
  ws: string,
  doc: { type: string; id: number },
  locationId: number,
): Promise<Map<number, string>> {
  const res = await tx.execute(sql`select doc_line_id, unit_cost::text as unit_cost from stock_move
    where workspace_id = ${ws}::uuid and doc_type = ${doc.type} and doc_id = ${doc.id} and location_id = ${locationId}
      and qty > 0 order by id`);
  return new Map(
    (res.rows as Array<{ doc_line_id: number | string; unit_cost: string }>).map((r) => [
      Number(r.doc_line_id),
      r.unit_cost,
    ]),
  );
}

export async function productCosts(tx: Tx, ws: string, productIds: readonly unknown[]): Promise<Map<number, string>> {
  const ids = `{${[...new Set(productIds.map(Number))].join(",")}}`;
  const res = await tx.execute(sql`select id, coalesce(cost, 0)::text as cost from product
    where workspace_id = ${ws}::uuid and id = any(${ids}::bigint[])`);
  return new Map((res.rows as Array<{ id: number | string; cost: string }>).map((r) => [Number(r.id), r.cost]));
}
