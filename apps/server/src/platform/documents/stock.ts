import { dec, plain } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import type { Tx } from "../db/database.ts";
import type { Caller } from "../rest/access.ts";
import { conflict } from "./refusals.ts";
import { documentSettings } from "./settings.ts";

// The append-only stock ledger (DESIGN §2.3.1): a document writes signed moves (− out, + in) and a cancel writes the
// opposite ones. Stock on hand is Σ qty per product and location; a move that takes a stock-tracked product below
// zero is refused, naming the product and the location, unless the workspace's settings allow negative stock.

export type StockMove = {
  product_id: number;
  location_id: number;
  qty: string;
  unit_cost: string;
  doc_line_id: number;
};

const products = (moves: readonly { product_id: number }[]) =>
  `{${[...new Set(moves.map((m) => m.product_id))].sort((a, b) => a - b).join(",")}}`;

// The products a transaction holds locked (a row lock lasts to its end): locking them again is a round trip for
// nothing. A savepoint is a handle of its own, so what it locks is not counted for the transaction around it.
const lockedProducts = new WeakMap<object, Set<number>>();

export function holdingProducts(tx: Tx, ids: Iterable<number>): void {
  const held = lockedProducts.get(tx) ?? new Set<number>();
  for (const id of ids) held.add(id);
  lockedProducts.set(tx, held);
}

// Two documents taking the same product queue on the product rows (in id order, so they cannot deadlock); the
// second sees what the first left.
async function lockProducts(tx: Tx, ws: string, moves: readonly { product_id: number }[]): Promise<void> {
  const held = lockedProducts.get(tx);
  if (held && moves.every((m) => held.has(m.product_id))) return;
  await tx.execute(sql`select id from product where workspace_id = ${ws}::uuid
    and id = any(${products(moves)}::bigint[]) order by id for update`);
  holdingProducts(
    tx,
    moves.map((m) => m.product_id),
  );
}

async function refuseNegative(tx: Tx, ws: string, moves: readonly StockMove[], verb: string): Promise<void> {
  const out = moves.filter((m) => dec(m.qty).isNegative());
  if (out.length === 0) return;
  const res = await tx.execute(sql`select p.id as product_id, l.id as location_id, p.name as product,
      l.name as location, sum(m.qty)::text as after
    from stock_move m
    join product p on p.workspace_id = m.workspace_id and p.id = m.product_id
    join location l on l.workspace_id = m.workspace_id and l.id = m.location_id
    where m.workspace_id = ${ws}::uuid and p.is_stock_tracked
      and (m.product_id, m.location_id) in (select * from unnest(${`{${out.map((m) => m.product_id).join(",")}}`}::bigint[],
        ${`{${out.map((m) => m.location_id).join(",")}}`}::bigint[]))
    group by p.id, p.name, l.id, l.name having sum(m.qty) < 0 order by p.name, l.name limit 1`);
  const short = res.rows[0] as
    | { product_id: number | string; location_id: number | string; product: string; location: string; after: string }
    | undefined;
  if (!short) return;
  const taken = out
    .filter((m) => m.product_id === Number(short.product_id) && m.location_id === Number(short.location_id))
    .reduce((n, m) => n.plus(dec(m.qty).abs()), dec("0"));
  const onHand = taken.plus(dec(short.after));
  throw conflict(
    `Not enough ${short.product} at ${short.location} to ${verb}: ${plain(onHand)} on hand, ${plain(taken)} needed`,
    { reason: "negative_stock", product_id: Number(short.product_id), location_id: Number(short.location_id) },
  );
}

export async function writeStockMoves(
  tx: Tx,
  caller: Caller,
  doc: { type: string; id: number },
  moves: readonly StockMove[],
  verb: string,
): Promise<void> {
  if (moves.length === 0) return;
  const ws = caller.workspaceId as string;
  await lockProducts(tx, ws, moves);
  const values = moves.map(
    (m) => sql`(${ws}::uuid, ${m.product_id}, ${m.location_id}, ${m.qty}::numeric, ${m.unit_cost}::numeric,
      ${doc.type}, ${doc.id}, ${m.doc_line_id})`,
  );
  await tx.execute(sql`insert into stock_move
      (workspace_id, product_id, location_id, qty, unit_cost, doc_type, doc_id, doc_line_id)
    values ${sql.join(values, sql`, `)}`);
  if (!(await documentSettings(tx, ws)).allow_negative_stock) await refuseNegative(tx, ws, moves, verb);
}

// Cancel: the opposite of what the document's moves still add up to, per line, product, location and cost.
export async function reverseStockMoves(tx: Tx, caller: Caller, doc: { type: string; id: number }): Promise<void> {
  const ws = caller.workspaceId as string;
  const res =
    await tx.execute(sql`select product_id, location_id, (-sum(qty))::text as qty, unit_cost::text as unit_cost,
      doc_line_id from stock_move where workspace_id = ${ws}::uuid and doc_type = ${doc.type} and doc_id = ${doc.id}
    group by product_id, location_id, unit_cost, doc_line_id having sum(qty) <> 0 order by doc_line_id`);
  const moves = (res.rows as Array<Record<string, string | number>>).map((r) => ({
    product_id: Number(r.product_id),
    location_id: Number(r.location_id),
    qty: String(r.qty),
    unit_cost: String(r.unit_cost),
    doc_line_id: Number(r.doc_line_id),
  }));
  await writeStockMoves(tx, caller, doc, moves, "cancel");
}
