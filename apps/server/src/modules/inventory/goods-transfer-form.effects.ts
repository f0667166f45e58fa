import { goodsTransferForm, goodsTransferFormLine } from "@workmetrics/domain/db/inventory-schema";
import { dec, money } from "@workmetrics/domain/documents/decimal";
import { costTotal, TRANSFER_DISPATCH_RULE, TRANSFER_RECEIPT_RULE } from "@workmetrics/domain/documents/postings";
import { shortfall } from "@workmetrics/domain/documents/types/goods-transfer-form";
import { sql } from "drizzle-orm";
import { postJournal, reverseJournals } from "../../platform/documents/ledger.ts";
import { invalid } from "../../platform/documents/refusals.ts";
import type { Effect, PrepareSave } from "../../platform/documents/registry.ts";
import { type RowOf, rowOf, rowsOf } from "../../platform/documents/rows.ts";
import { reverseStockMoves, type StockMove, writeStockMoves } from "../../platform/documents/stock.ts";
import { type Row, today } from "../../platform/documents/store.ts";
import { outCosts, productCosts, refuseSystemLocations, systemLocationId } from "./system-locations.ts";

// Issue 11: what a goods transfer form does besides its status. Dispatch (submit) moves each line from the
// from-location into the workspace's transit location at the product's cost and posts Dr 1210 Stock In Transit /
// Cr 1200. Receive (the engine has added the quantities received to the lines, each at most what was sent) moves
// what arrived from transit into the to-location and writes the rest off from transit: the line's qty_short, the
// header's reason (required when anything is short), Dr 1200 for what arrived, Dr 5010 Stock Adjustment for the
// shortfall / Cr 1210 for all that was sent — transit is left empty. Cancel, in transit, reverses both.

const docRef = (spec: { machine: { type: string } }, header: { id: number }) => ({
  type: spec.machine.type,
  id: header.id,
});

// The lines as moved: the dispatch's guard refuses a line without a product, so every line here has one.
function moved(rows: readonly Row[]): Array<RowOf<typeof goodsTransferFormLine> & { product_id: number }> {
  return rowsOf(goodsTransferFormLine, rows).map((l, i) => {
    if (l.product_id == null) throw invalid("Every line of a goods transfer moves a product", `lines.${i}.product_id`);
    return { ...l, product_id: l.product_id };
  });
}

const submit: Effect = async (tx, caller, spec, doc, step) => {
  const ws = caller.workspaceId as string;
  const header = rowOf(goodsTransferForm, doc.header);
  const lines = moved(doc.lines);
  const { from_location_id: from, to_location_id: to } = header;
  await refuseSystemLocations(
    tx,
    ws,
    [
      { id: from, field: "from_location_id" },
      { id: to, field: "to_location_id" },
    ],
    "transferred from or to",
  );
  const transit = await systemLocationId(tx, ws, "transit");
  const cost = await productCosts(
    tx,
    ws,
    lines.map((l) => l.product_id),
  );
  const moves: StockMove[] = lines.flatMap((l) => {
    const unit_cost = cost.get(l.product_id) ?? "0";
    const line = { product_id: l.product_id, unit_cost, doc_line_id: l.id };
    return [
      { ...line, location_id: from, qty: `-${l.qty}` },
      { ...line, location_id: transit, qty: l.qty },
    ];
  });
  const ref = docRef(spec, header);
  await writeStockMoves(tx, caller, ref, moves, "dispatch");
  const sent = moves.filter((m) => m.location_id === transit);
  await postJournal(tx, caller, { ...ref, number: step.number, date: header.doc_date }, TRANSFER_DISPATCH_RULE, {
    cost_total: costTotal(sent),
  });
};

const receive: Effect = async (tx, caller, spec, doc) => {
  const ws = caller.workspaceId as string;
  const header = rowOf(goodsTransferForm, doc.header);
  const ref = docRef(spec, header);
  const transit = await systemLocationId(tx, ws, "transit");
  const cost = await outCosts(tx, ws, ref, transit);
  const short = moved(doc.lines).map((l) => ({ line: l, short: shortfall(l) }));
  const firstShort = short.findIndex((s) => dec(s.short).greaterThan(0));
  if (firstShort >= 0 && !(header.shortfall_reason ?? "").trim()) {
    throw invalid(
      `Line ${firstShort + 1} is short by ${short[firstShort].short}: give the reason for the shortfall`,
      "values.shortfall_reason",
    );
  }
  const moves: StockMove[] = [];
  const sent: StockMove[] = [];
  const arrived: StockMove[] = [];
  for (const { line: l } of short) {
    const base = { product_id: l.product_id, unit_cost: cost.get(l.id) ?? "0", doc_line_id: l.id };
    const received = l.qty_received;
    // The whole line leaves transit: what arrived into the to-location, the shortfall written off.
    moves.push({ ...base, location_id: transit, qty: `-${l.qty}` });
    sent.push({ ...base, location_id: transit, qty: l.qty });
    if (dec(received).greaterThan(0)) {
      const into = { ...base, location_id: header.to_location_id, qty: received };
      moves.push(into);
      arrived.push(into);
    }
  }
  await writeStockMoves(tx, caller, ref, moves, "receive");
  const ids = short.map((s) => s.line.id);
  await tx.execute(sql`update goods_transfer_form_line l set qty_short = v.short
    from unnest(${`{${ids.join(",")}}`}::bigint[], ${`{${short.map((s) => s.short).join(",")}}`}::numeric[]) as v(id, short)
    where l.workspace_id = ${ws}::uuid and l.id = v.id and l.goods_transfer_form_id = ${ref.id}`);
  const sentTotal = costTotal(sent);
  const receivedTotal = costTotal(arrived);
  await postJournal(tx, caller, { ...ref, number: header.number, date: await today(tx) }, TRANSFER_RECEIPT_RULE, {
    cost_total: sentTotal,
    received_total: receivedTotal,
    // What transit held less what arrived, so 1210 is left at exactly zero for this transfer.
    short_total: money(dec(sentTotal).minus(receivedTotal)),
  });
};

const cancel: Effect = async (tx, caller, spec, doc, step) => {
  if (step.from === spec.machine.initial) return;
  const header = rowOf(goodsTransferForm, doc.header);
  const ref = docRef(spec, header);
  await reverseStockMoves(tx, caller, ref);
  await reverseJournals(tx, caller, { ...ref, number: header.number, date: await today(tx) });
};

// The type is valuedAtCost: a transfer's lines are the products' cost, out of scope for GST, whatever was sent.
export const valueAtCost: PrepareSave = async (tx, caller, _spec, draft) => {
  const cost = await productCosts(
    tx,
    caller.workspaceId as string,
    draft.lines.filter((l) => l.product_id != null).map((l) => l.product_id),
  );
  return {
    header: { ...draft.header, discount_percent: null, discount_amount: null },
    lines: draft.lines.map((l) => ({
      ...l,
      unit_price: l.product_id == null ? "0" : (cost.get(Number(l.product_id)) ?? "0"),
      tax_code: "OS",
      discount_percent: null,
    })),
  };
};

export const GOODS_TRANSFER_FORM_EFFECTS = { submit, receive, cancel };
