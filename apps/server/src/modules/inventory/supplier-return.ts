import { Dec, dec, money } from "@workmetrics/domain/documents/decimal";
import { costTotal, SUPPLIER_DEBIT_RULE, SUPPLIER_RETURN_RULE } from "@workmetrics/domain/documents/postings";
import { computeTotals, type TaxCode } from "@workmetrics/domain/documents/totals";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { postJournal, reverseJournals } from "../../platform/documents/ledger.ts";
import { invalid } from "../../platform/documents/refusals.ts";
import { documentSpec, type Effect, type PrepareConvert } from "../../platform/documents/registry.ts";
import { reverseStockMoves, type StockMove, writeStockMoves } from "../../platform/documents/stock.ts";
import { type Row, today } from "../../platform/documents/store.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { settleReceivable } from "../documents/receivable.ts";
import { applyMovingAverage } from "../purchasing/costs.ts";

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

type Billed = {
  sdo_line_id: string;
  invoice_id: string;
  unit_net: string; // base currency, after discounts, per unit
  tax_code: string;
  billed: string; // what submitted supplier invoices billed of the receipt line
  debited: string; // what other submitted returns already debited of it
};

async function billedLines(tx: Tx, ws: string, sdoLineIds: readonly number[], grnId: number): Promise<Billed[]> {
  if (sdoLineIds.length === 0) return [];
  const res = await tx.execute(sql`select distinct on (l.supplier_delivery_order_line_id)
      l.supplier_delivery_order_line_id::text as sdo_line_id, h.id::text as invoice_id,
      (l.net_amount / nullif(l.qty, 0) * h.rate)::text as unit_net, l.tax_code,
      (select coalesce(sum(x.qty), 0) from supplier_invoice_line x join supplier_invoice y
        on y.workspace_id = x.workspace_id and y.id = x.supplier_invoice_id
        where x.workspace_id = l.workspace_id and x.supplier_delivery_order_line_id = l.supplier_delivery_order_line_id
          and y.status not in ('draft', 'cancelled'))::text as billed,
      (select coalesce(sum(g.qty_credited), 0) from goods_return_note_line g join goods_return_note r
        on r.workspace_id = g.workspace_id and r.id = g.goods_return_note_id
        where g.workspace_id = l.workspace_id and g.source_line_id = l.supplier_delivery_order_line_id
          and r.direction = 'supplier' and r.id <> ${grnId} and r.status not in ('draft', 'cancelled'))::text as debited
    from supplier_invoice_line l join supplier_invoice h on h.workspace_id = l.workspace_id and h.id = l.supplier_invoice_id
    where l.workspace_id = ${ws}::uuid and h.status not in ('draft', 'cancelled')
      and l.supplier_delivery_order_line_id = any(${`{${sdoLineIds.join(",")}}`}::bigint[])
    order by l.supplier_delivery_order_line_id, h.id`);
  return res.rows as Billed[];
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

  // The invoiced part: per invoice, the lines' debited quantities at the invoice's price.
  const billed = new Map(
    (
      await billedLines(
        tx,
        ws,
        goods.map((l) => Number(l.source_line_id)),
        grnId,
      )
    ).map((b) => [Number(b.sdo_line_id), b]),
  );
  const perInvoice = new Map<string, Array<{ qty: string; unit_price: string; tax_code: TaxCode; cost: string }>>();
  const debitedQty: Array<[number, string]> = [];
  for (const [i, l] of goods.entries()) {
    const b = billed.get(Number(l.source_line_id));
    if (!b) continue;
    const open = Dec.max(dec(b.billed).minus(dec(b.debited)), 0);
    const qty = Dec.min(open, dec(String(l.qty)));
    if (!qty.greaterThan(0)) continue;
    debitedQty.push([Number(l.id), qty.toFixed()]);
    const list = perInvoice.get(b.invoice_id) ?? [];
    list.push({
      qty: qty.toFixed(),
      unit_price: b.unit_net,
      tax_code: b.tax_code as TaxCode,
      cost: moves[i].unit_cost,
    });
    perInvoice.set(b.invoice_id, list);
  }
  if (debitedQty.length) {
    await tx.execute(sql`update goods_return_note_line g set qty_credited = v.q
      from unnest(${`{${debitedQty.map(([id]) => id).join(",")}}`}::bigint[], ${`{${debitedQty.map(([, q]) => q).join(",")}}`}::numeric[]) as v(id, q)
      where g.workspace_id = ${ws}::uuid and g.id = v.id and g.goods_return_note_id = ${grnId}`);
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
  const gone = await tx.execute(sql`delete from payment_allocation where workspace_id = ${ws}::uuid
    and payment_type = ${ALLOCATION} and payment_id = ${grnId} returning document_id`);
  const invoices = documentSpec("supplier_invoice");
  for (const r of gone.rows as Array<{ document_id: number | string }>) {
    await settleReceivable(tx, caller, invoices, Number(r.document_id), {
      goods_return_note: { id: grnId, number, cancelled: true },
    });
  }
}
