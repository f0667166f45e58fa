import { costTotal, DELIVERY_COGS_RULE } from "@workmetrics/domain/documents/postings";
import { sql } from "drizzle-orm";
import { postJournal, reverseJournals } from "../../platform/documents/ledger.ts";
import { invalid } from "../../platform/documents/refusals.ts";
import type { Effect } from "../../platform/documents/registry.ts";
import { reverseStockMoves, type StockMove, writeStockMoves } from "../../platform/documents/stock.ts";
import { today } from "../../platform/documents/store.ts";

// Issue 10 §2: what a delivery order does besides its status. Submit takes the goods out of stock at each
// product's cost now (−qty moves from the line's location, or the header's) and posts Dr 5000 Cost of Goods Sold /
// Cr 1200 Stock In Hand for their value; cancel writes the opposite moves and the reversing entry.

const submit: Effect = async (tx, caller, spec, doc, step) => {
  const ws = caller.workspaceId as string;
  const goods = doc.lines.filter((l) => l.product_id != null);
  const ids = `{${[...new Set(goods.map((l) => Number(l.product_id)))].join(",")}}`;
  const res = await tx.execute(sql`select id, cost::text as cost from product
    where workspace_id = ${ws}::uuid and id = any(${ids}::bigint[])`);
  const cost = new Map((res.rows as Array<{ id: number | string; cost: string }>).map((r) => [Number(r.id), r.cost]));
  const moves: StockMove[] = goods.map((l) => {
    const n = doc.lines.indexOf(l) + 1;
    const location = l.location_id ?? doc.header.location_id;
    if (location == null) throw invalid(`Choose the location line ${n} leaves from`, `lines.${n - 1}.location_id`);
    return {
      product_id: Number(l.product_id),
      location_id: Number(location),
      qty: `-${l.qty}`,
      unit_cost: cost.get(Number(l.product_id)) ?? "0",
      doc_line_id: Number(l.id),
    };
  });
  const docRef = { type: spec.machine.type, id: Number(doc.header.id) };
  await writeStockMoves(tx, caller, docRef, moves, "deliver");
  await postJournal(
    tx,
    caller,
    { ...docRef, number: step.number, date: String(doc.header.doc_date) },
    DELIVERY_COGS_RULE,
    { cost_total: costTotal(moves) },
  );
};

const cancel: Effect = async (tx, caller, spec, doc, step) => {
  if (step.from === spec.machine.initial) return;
  const docRef = { type: spec.machine.type, id: Number(doc.header.id) };
  await reverseStockMoves(tx, caller, docRef);
  await reverseJournals(tx, caller, {
    ...docRef,
    number: (doc.header.number as string | null) ?? null,
    date: await today(tx),
  });
};

export const DELIVERY_ORDER_EFFECTS = { submit, cancel };
