import { dec, money } from "@workmetrics/domain/documents/decimal";
import { costTotal, SUPPLIER_DEBIT_RULE, SUPPLIER_RETURN_RULE } from "@workmetrics/domain/documents/postings";
import { computeTotals, type TaxCode } from "@workmetrics/domain/documents/totals";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { postJournal, reverseJournals } from "../../platform/documents/ledger.ts";
import { invalid } from "../../platform/documents/refusals.ts";
import { documentSpec, type Effect, type PrepareConvert } from "../../platform/documents/registry.ts";
import { reverseStockMoves, type StockMove, writeStockMoves } from "../../platform/documents/stock.ts";
import { type Row, today, writeEvent } from "../../platform/documents/store.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { settleReceivable } from "../documents/receivable.ts";
import { applyMovingAverage } from "../purchasing/costs.ts";
import { spreadReturn } from "./supplier-return-spread.ts";

// Issue 11 "Goods return notes to suppliers": a goods return note made from a submitted supplier delivery order
// (direction supplier; the engine has checked each line against what is left to return on the receipt and recomputed
// qty_returned on the receipt's and the purchase order's lines). Submit takes the goods out of stock at the cost they
// came in at (the receipt's own move; the moving average loses them at that cost) — Dr 2100 / Cr 1200 — and, for
// the part the supplier already invoiced, debits that invoice: the note is the supplier debit note. The debited
// quantity of each line is kept in its qty_credited; the amount (the invoice line's price in base currency, with its
// GST) is a payment_allocation row of payment_type goods_return_note against the supplier invoice, whose outstanding
// falls by it (below zero: the supplier owes us), posted Dr 2000 / Cr 2100 (receipt cost) / Cr 5020 (the rest of
// the price) / Cr 1300 GST. Cancel reverses all of it.

const ALLOCATION = "goods_return_note";

// A note made from a supplier delivery order goes to the supplier.
export const prepareSupplierReturn: PrepareConvert = async (_tx, _caller, source, draft) =>
  source.spec.machine.type === "supplier_delivery_order"
    ? { header: { ...draft.header, direction: "supplier" }, lines: draft.lines }
    : draft;

type Billing = {
  id: string; // the supplier invoice line
  sdo_line_id: string;
  invoice_id: string;
  qty: string;
  returned: string; // what earlier returns debited of it
  unit_net: string; // base currency, after discounts, per unit
  tax_code: string;
};

// The submitted supplier invoices' lines that bill the receipt lines (oldest invoice first, locked: their
// qty_returned changes), and what is left to debit of each receipt line: what they billed less what the other live
// returns to the supplier debited.
async function billing(
  tx: Tx,
  ws: string,
  sdoLineIds: readonly number[],
  grnId: number,
): Promise<{ lines: Billing[]; open: Map<number, string> }> {
  if (sdoLineIds.length === 0) return { lines: [], open: new Map() };
  const ids = `{${sdoLineIds.join(",")}}`;
  const res = await tx.execute(sql`select l.id::text as id, l.supplier_delivery_order_line_id::text as sdo_line_id,
      h.id::text as invoice_id, l.qty::text as qty, coalesce(l.qty_returned, 0)::text as returned,
      (l.net_amount / nullif(l.qty, 0) * h.rate)::text as unit_net, l.tax_code
    from supplier_invoice_line l join supplier_invoice h on h.workspace_id = l.workspace_id and h.id = l.supplier_invoice_id
    where l.workspace_id = ${ws}::uuid and h.status not in ('draft', 'cancelled')
      and l.supplier_delivery_order_line_id = any(${ids}::bigint[])
    order by l.supplier_delivery_order_line_id, h.id, l.id
    for update of l`);
  const debited = await tx.execute(sql`select g.source_line_id::text as sdo_line_id, sum(g.qty_credited)::text as qty
    from goods_return_note_line g join goods_return_note r on r.workspace_id = g.workspace_id and r.id = g.goods_return_note_id
    where g.workspace_id = ${ws}::uuid and g.source_line_id = any(${ids}::bigint[]) and r.direction = 'supplier'
      and r.id <> ${grnId} and r.status not in ('draft', 'cancelled')
    group by g.source_line_id`);
  const lines = res.rows as Billing[];
  const before = new Map(
    (debited.rows as Array<{ sdo_line_id: string; qty: string }>).map((r) => [Number(r.sdo_line_id), dec(r.qty)]),
  );
  const open = new Map<number, string>();
  for (const b of lines) {
    const id = Number(b.sdo_line_id);
    open.set(
      id,
      dec(open.get(id) ?? (before.get(id) ?? dec("0")).negated())
        .plus(b.qty)
        .toFixed(),
    );
  }
  return { lines, open };
}

// What a return debited of each supplier invoice line, added to (or, cancelled, taken from) its qty_returned; kept
// in the return's history (action "debit") so a cancel takes back exactly that.
async function addReturned(tx: Tx, ws: string, takes: ReadonlyArray<{ id: number; qty: string }>, sign: 1 | -1) {
  if (takes.length === 0) return;
  await tx.execute(sql`update supplier_invoice_line l
      set qty_returned = greatest(coalesce(l.qty_returned, 0) + ${sign} * v.q, 0)
    from (select id, sum(q) as q from unnest(${`{${takes.map((t) => t.id).join(",")}}`}::bigint[],
      ${`{${takes.map((t) => t.qty).join(",")}}`}::numeric[]) as x(id, q) group by id) v
    where l.workspace_id = ${ws}::uuid and l.id = v.id`);
}

export const returnToSupplier: Effect = async (tx, caller, spec, doc, step) => {
  const ws = caller.workspaceId as string;
  const grnId = Number(doc.header.id);
  for (const [i, l] of doc.lines.entries()) {
    if (l.source_line_id == null) {
      throw invalid(
        `Line ${i + 1} is not on the supplier delivery order the goods came in on`,
        `lines.${i}.source_line_id`,
      );
    }
  }
  const goods = doc.lines.filter((l) => l.product_id != null);
  const received = `{${goods.map((l) => Number(l.source_line_id)).join(",")}}`;
  const came = await tx.execute(sql`select doc_line_id, unit_cost::text as unit_cost, location_id from stock_move
    where workspace_id = ${ws}::uuid and doc_type = 'supplier_delivery_order' and doc_line_id = any(${received}::bigint[])
      and qty > 0 order by id`);
  const inMove = new Map(
    (came.rows as Array<{ doc_line_id: number | string; unit_cost: string; location_id: number | string }>).map((r) => [
      Number(r.doc_line_id),
      r,
    ]),
  );
  const moves: StockMove[] = goods.map((l) => {
    const n = doc.lines.indexOf(l) + 1;
    const receipt = inMove.get(Number(l.source_line_id));
    const location = l.location_id ?? doc.header.location_id ?? receipt?.location_id;
    if (location == null) throw invalid(`Choose the location line ${n} leaves from`, `lines.${n - 1}.location_id`);
    return {
      product_id: Number(l.product_id),
      location_id: Number(location),
      qty: `-${l.qty}`,
      unit_cost: receipt?.unit_cost ?? String(l.unit_cost ?? "0"),
      doc_line_id: Number(l.id),
    };
  });
  const ref = { type: spec.machine.type, id: grnId };
  const date = String(doc.header.doc_date);
  await applyMovingAverage(
    tx,
    ws,
    moves.map((m) => ({ ...m, qty: dec(m.qty).abs().toFixed() })),
    -1,
  );
  await writeStockMoves(tx, caller, ref, moves, "return to the supplier");
  await postJournal(tx, caller, { ...ref, number: step.number, date }, SUPPLIER_RETURN_RULE, {
    cost_total: costTotal(moves),
  });

  // The invoiced part: spread over every invoice that billed the receipt lines (oldest first), at each one's price.
  const billed = await billing(
    tx,
    ws,
    goods.map((l) => Number(l.source_line_id)),
    grnId,
  );
  const byId = new Map(billed.lines.map((b) => [Number(b.id), b]));
  const takes = spreadReturn(
    billed.lines.map((b) => ({
      id: Number(b.id),
      receiptLineId: Number(b.sdo_line_id),
      qty: b.qty,
      returned: b.returned,
    })),
    billed.open,
    goods.map((l) => ({ id: Number(l.id), receiptLineId: Number(l.source_line_id), qty: String(l.qty) })),
  );
  const perInvoice = new Map<string, Array<{ qty: string; unit_price: string; tax_code: TaxCode; cost: string }>>();
  const debited = new Map<number, ReturnType<typeof dec>>();
  for (const take of takes) {
    const b = byId.get(take.invoiceLineId) as Billing;
    const i = goods.findIndex((l) => Number(l.id) === take.returnLineId);
    debited.set(take.returnLineId, (debited.get(take.returnLineId) ?? dec("0")).plus(take.qty));
    const list = perInvoice.get(b.invoice_id) ?? [];
    list.push({ qty: take.qty, unit_price: b.unit_net, tax_code: b.tax_code as TaxCode, cost: moves[i].unit_cost });
    perInvoice.set(b.invoice_id, list);
  }
  const debitedQty = [...debited].map(([id, q]) => [id, q.toFixed()] as const);
  if (debitedQty.length) {
    await tx.execute(sql`update goods_return_note_line g set qty_credited = v.q
      from unnest(${`{${debitedQty.map(([id]) => id).join(",")}}`}::bigint[], ${`{${debitedQty.map(([, q]) => q).join(",")}}`}::numeric[]) as v(id, q)
      where g.workspace_id = ${ws}::uuid and g.id = v.id and g.goods_return_note_id = ${grnId}`);
    const lines = takes.map((t) => ({ id: t.invoiceLineId, qty: t.qty }));
    await addReturned(tx, ws, lines, 1);
    await writeEvent(tx, caller, {
      type: "goods_return_note",
      docId: grnId,
      action: "debit",
      from: null,
      to: null,
      changes: {
        supplier_invoice_lines: takes.map((t) => ({
          id: t.invoiceLineId,
          supplier_invoice_id: Number(byId.get(t.invoiceLineId)?.invoice_id),
          qty: t.qty,
        })),
      },
    });
  }
  const invoices = documentSpec("supplier_invoice");
  for (const [invoiceId, lines] of perInvoice) {
    const totals = computeTotals({ lines, discount: null });
    const receivedValue = costTotal(lines.map((l) => ({ qty: l.qty, unit_cost: l.cost })));
    await tx.execute(sql`insert into payment_allocation
        (workspace_id, payment_type, payment_id, document_type, document_id, amount)
      values (${ws}::uuid, ${ALLOCATION}, ${grnId}, 'supplier_invoice', ${Number(invoiceId)}, ${totals.total}::numeric)`);
    await postJournal(tx, caller, { ...ref, number: step.number, date }, SUPPLIER_DEBIT_RULE, {
      total: totals.total,
      received_value: receivedValue,
      price_variance: money(dec(totals.net_total).minus(receivedValue)),
      tax_total: totals.tax_total,
    });
    await settleReceivable(tx, caller, invoices, Number(invoiceId), {
      goods_return_note: { id: grnId, number: step.number },
    });
  }
};

export async function cancelSupplierReturn(tx: Tx, caller: Caller, doc: { header: Row }): Promise<void> {
  const ws = caller.workspaceId as string;
  const grnId = Number(doc.header.id);
  const ref = { type: "goods_return_note", id: grnId };
  const out = await tx.execute(sql`select product_id, (-sum(qty))::text as qty, unit_cost::text as unit_cost
    from stock_move where workspace_id = ${ws}::uuid and doc_type = 'goods_return_note' and doc_id = ${grnId}
    group by product_id, unit_cost having sum(qty) <> 0`);
  await reverseStockMoves(tx, caller, ref);
  await applyMovingAverage(
    tx,
    ws,
    (out.rows as Array<{ product_id: number | string; qty: string; unit_cost: string }>).map((r) => ({
      product_id: Number(r.product_id),
      qty: r.qty,
      unit_cost: r.unit_cost,
    })),
    1,
  );
  const number = (doc.header.number as string | null) ?? null;
  await reverseJournals(tx, caller, { ...ref, number, date: await today(tx) });
  // The invoice lines get back what this return debited of them (its "debit" history row).
  const debit = await tx.execute(sql`select changes from document_event where workspace_id = ${ws}::uuid
    and doc_type = 'goods_return_note' and doc_id = ${grnId} and action = 'debit' order by id desc limit 1`);
  const recorded = (
    debit.rows[0] as { changes: { supplier_invoice_lines?: Array<{ id: number; qty: string }> } } | undefined
  )?.changes?.supplier_invoice_lines;
  await addReturned(tx, ws, recorded ?? [], -1);
  const gone = await tx.execute(sql`delete from payment_allocation where workspace_id = ${ws}::uuid
    and payment_type = ${ALLOCATION} and payment_id = ${grnId} returning document_id`);
  const invoices = documentSpec("supplier_invoice");
  for (const r of gone.rows as Array<{ document_id: number | string }>) {
    await settleReceivable(tx, caller, invoices, Number(r.document_id), {
      goods_return_note: { id: grnId, number, cancelled: true },
    });
  }
}
