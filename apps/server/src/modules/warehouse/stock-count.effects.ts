import { dec, money, plain, sum } from "@workmetrics/domain/documents/decimal";
import { leg, type PostingRule } from "@workmetrics/domain/documents/postings";
import { postJournal } from "../../platform/documents/ledger.ts";
import type { Effect } from "../../platform/documents/registry.ts";
import { type StockMove, writeStockMoves } from "../../platform/documents/stock.ts";
import { today } from "../../platform/documents/store.ts";
import { productCosts } from "../inventory/system-locations.ts";

// Issue 22 "Warehouse": a stock count's differences applied by a manager. Each line's difference (counted − system,
// as read when the count was submitted) is a stock move at the location at the product's cost now, and the net
// value is posted Dr 5010 Stock Adjustment / Cr 1200 Stock for a loss; a net gain flips both sides (the builder
// turns a negative figure round). An applied count is final: a later count corrects it.
export const STOCK_COUNT_RULE: PostingRule = {
  name: "stock_count",
  memo: "Stock count",
  legs: [leg("debit", "5010", "adjustment", "loss_total"), leg("credit", "1200", "stock", "loss_total")],
};

const apply: Effect = async (tx, caller, spec, doc, step) => {
  const ws = caller.workspaceId as string;
  const location = Number(doc.header.location_id);
  const cost = await productCosts(
    tx,
    ws,
    doc.lines.map((l) => l.product_id),
  );
  const moves: StockMove[] = doc.lines
    .filter((l) => l.product_id != null && !dec(String(l.difference ?? "0")).isZero())
    .map((l) => ({
      product_id: Number(l.product_id),
      location_id: Number(l.location_id ?? location),
      qty: plain(dec(String(l.difference))),
      unit_cost: cost.get(Number(l.product_id)) ?? "0",
      doc_line_id: Number(l.id),
    }));
  const ref = { type: spec.machine.type, id: Number(doc.header.id) };
  await writeStockMoves(tx, caller, ref, moves, "adjust");
  // What the count lost at cost (a gain is negative): each move's value rounded to cents, then summed.
  const loss = money(sum(moves.map((m) => money(dec(m.qty).times(dec(m.unit_cost)).negated()))));
  await postJournal(
    tx,
    caller,
    { ...ref, number: step.number ?? (doc.header.number as string | null), date: await today(tx) },
    STOCK_COUNT_RULE,
    { loss_total: loss },
  );
};

export const STOCK_COUNT_EFFECTS = { apply } as const;
