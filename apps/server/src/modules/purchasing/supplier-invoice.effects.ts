import { Dec, dec, money } from "@workmetrics/domain/documents/decimal";
import { SUPPLIER_INVOICE_RULE } from "@workmetrics/domain/documents/postings";
import { type MatchLine, supplierNumberKey, threeWayCheck } from "@workmetrics/domain/documents/three-way";
import { toBase } from "@workmetrics/domain/documents/totals";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { postJournal, reverseJournals } from "../../platform/documents/ledger.ts";
import { conflict } from "../../platform/documents/refusals.ts";
import {
  type DocumentSpec,
  documentSpec,
  type Effect,
  type PrepareConvert,
  type PrepareSave,
} from "../../platform/documents/registry.ts";
import { documentSettings } from "../../platform/documents/settings.ts";
import { loadLines, lockHeader, type Row, today, updateRow, writeEvent } from "../../platform/documents/store.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { dueDate } from "../documents/invoice.effects.ts";
import { settleReceivable } from "../documents/receivable.ts";
import { receiptUnitCosts } from "./costs.ts";
import { prefillPurchasePrices } from "./pricing.ts";

// Issue 11: what a supplier invoice does besides its status. Submit refuses a supplier invoice number the supplier
// already used, links each line to the order line (and receipt line) it bills, runs the three-way check (three-way.ts:
// each line's match_exception, the header's match_status), fixes the due date and `outstanding`, and posts
// Dr 2100 at the receipt value of the goods billed, Dr 5020 the price variance, Dr 5000 lines for nothing received,
// Dr 1300 GST input / Cr 2000 Trade Creditors in base currency. Release records who let an exception through, when
// and why. Cancel is refused while a payment is allocated to it, and posts the reversing entry.

const text = (v: unknown) => String(v ?? "").trim();

// The supplier's number is theirs once per supplier (the unique index says so too, for a race): the refusal names
// the invoice that has it.
async function refuseUsedNumber(tx: Tx, ws: string, header: Row, id: number | null): Promise<void> {
  const number = text(header.supplier_invoice_number);
  if (!number || header.company_id == null) return;
  const res = await tx.execute(sql`select id, number from supplier_invoice
    where workspace_id = ${ws}::uuid and company_id = ${Number(header.company_id)} and status <> 'cancelled'
      and lower(trim(supplier_invoice_number)) = lower(${number}) and id <> ${id ?? 0} order by id limit 1`);
  const earlier = res.rows[0] as { id: number | string; number: string | null } | undefined;
  if (earlier) {
    const which = earlier.number ?? `Draft supplier invoice ${earlier.id}`;
    throw conflict(`${which} already has the supplier's number ${number}`, {
      reason: "duplicate_supplier_invoice_number",
      id: Number(earlier.id),
    });
  }
}

// document_save: the number checked as soon as it is typed, and product lines priced at what we pay.
export const prepareSupplierInvoice: PrepareSave = async (tx, caller, spec, draft) => {
  await refuseUsedNumber(tx, caller.workspaceId as string, draft.header, draft.id);
  return prefillPurchasePrices(tx, caller, spec, draft);
};

// document_convert: a number given with the conversion is checked the same way.
export const prepareSupplierInvoiceConvert: PrepareConvert = async (tx, caller, _source, draft) => {
  await refuseUsedNumber(tx, caller.workspaceId as string, draft.header, null);
  return draft;
};

// Each line's order line and receipt line, from the lines it was made from.
async function linkLines(tx: Tx, ws: string, header: Row, lines: readonly Row[]): Promise<void> {
  const from = header.source_type;
  const linked = lines.filter((l) => l.source_line_id != null);
  if (linked.length === 0 || (from !== "supplier_delivery_order" && from !== "purchase_order")) return;
  const ids = `{${linked.map((l) => Number(l.id)).join(",")}}`;
  if (from === "purchase_order") {
    await tx.execute(sql`update supplier_invoice_line set purchase_order_line_id = source_line_id
      where workspace_id = ${ws}::uuid and id = any(${ids}::bigint[])`);
    return;
  }
  await tx.execute(sql`update supplier_invoice_line l set supplier_delivery_order_line_id = r.id,
      purchase_order_line_id = r.source_line_id
    from supplier_delivery_order_line r
    where l.workspace_id = ${ws}::uuid and l.id = any(${ids}::bigint[])
      and r.workspace_id = l.workspace_id and r.id = l.source_line_id`);
}

// A line's price net of its own discount, in base currency: what the check compares (document discounts aside).
const netPrice = (line: Row, rate: unknown) =>
  dec(String(line.unit_price))
    .times(new Dec(100).minus(dec(String(line.discount_percent ?? "0"))))
    .dividedBy(100)
    .times(dec(String(rate ?? "1")));

type OrderLine = {
  id: number;
  qty: string;
  unit_price: string;
  discount_percent: string;
  rate: string;
  qty_received: string;
  qty_billed: string;
  product_id: number | null;
};

async function orderLines(tx: Tx, ws: string, ids: readonly number[]): Promise<Map<number, OrderLine>> {
  const out = new Map<number, OrderLine>();
  if (ids.length === 0) return out;
  const res = await tx.execute(sql`select l.id, l.qty::text as qty, l.unit_price::text as unit_price,
      l.discount_percent::text as discount_percent, h.rate::text as rate, l.qty_received::text as qty_received,
      l.qty_billed::text as qty_billed, l.product_id
    from purchase_order_line l join purchase_order h on h.workspace_id = l.workspace_id and h.id = l.purchase_order_id
    where l.workspace_id = ${ws}::uuid and l.id = any(${`{${[...new Set(ids)].join(",")}}`}::bigint[])`);
  for (const r of res.rows as OrderLine[]) {
    out.set(Number(r.id), { ...r, id: Number(r.id), product_id: r.product_id == null ? null : Number(r.product_id) });
  }
  return out;
}

// The three-way check over the invoice as stored (its lines linked), written onto its lines and header; answers the
// verdict. An invoice someone released stays released.
async function runThreeWay(tx: Tx, caller: Caller, spec: DocumentSpec, id: number): Promise<string> {
  const ws = caller.workspaceId as string;
  const header = (await lockHeader(tx, spec, ws, id, false)) as Row;
  const lines = await loadLines(tx, spec, ws, id);
  const po = await orderLines(
    tx,
    ws,
    lines.filter((l) => l.purchase_order_line_id != null).map((l) => Number(l.purchase_order_line_id)),
  );
  const matchLines: MatchLine[] = lines.map((l) => {
    const o = l.purchase_order_line_id == null ? undefined : po.get(Number(l.purchase_order_line_id));
    if (!o) return { qty: String(l.qty), unit_price: netPrice(l, header.rate), po: null };
    // The order line's qty_billed counts this invoice already (the engine recomputed it before the effects ran).
    const before = Dec.max(dec(o.qty_billed).minus(dec(String(l.qty))), 0);
    return {
      qty: String(l.qty),
      unit_price: netPrice(l, header.rate),
      po: {
        qty: o.qty,
        unit_price: netPrice(o as unknown as Row, o.rate),
        received: o.qty_received,
        billed_before: before,
      },
    };
  });
  const settings = await documentSettings(tx, ws);
  const key = supplierNumberKey(text(header.supplier_invoice_number));
  const dup = key
    ? await tx.execute(sql`select number, supplier_invoice_number from supplier_invoice
        where workspace_id = ${ws}::uuid and company_id = ${Number(header.company_id)} and id <> ${id}
          and status not in ('draft', 'cancelled')
          and upper(regexp_replace(supplier_invoice_number, '[^A-Za-z0-9]', '', 'g')) = ${key}
        order by id limit 1`)
    : { rows: [] };
  const duplicate = (dup.rows[0] as { number: string | null; supplier_invoice_number: string } | undefined) ?? null;
  const result = threeWayCheck(
    matchLines,
    {
      qty_percent: settings.match_qty_tolerance,
      price_percent: settings.match_price_tolerance,
      amount: settings.match_amount_tolerance,
    },
    duplicate,
  );
  if (lines.length) {
    const reasons = JSON.stringify(Object.fromEntries(lines.map((l, i) => [String(l.id), result.exceptions[i]])));
    await tx.execute(sql`update supplier_invoice_line l set match_exception = ${reasons}::jsonb ->> l.id::text
      where l.workspace_id = ${ws}::uuid and l.supplier_invoice_id = ${id}`);
  }
  const status = header.match_status === "released" ? "released" : result.status;
  await updateRow(tx, spec.header, ws, id, { match_status: status });
  return status;
}

// Goods arriving after their invoice: the open supplier invoices of the order that wait in the three-way check are
// checked again (Odoo recomputes release_to_pay the same way); a change is audited.
export async function recheckInvoices(tx: Tx, caller: Caller, purchaseOrderId: number): Promise<void> {
  const ws = caller.workspaceId as string;
  const res = await tx.execute(sql`select distinct h.id from supplier_invoice h
    join supplier_invoice_line l on l.workspace_id = h.workspace_id and l.supplier_invoice_id = h.id
    join purchase_order_line p on p.workspace_id = l.workspace_id and p.id = l.purchase_order_line_id
    where h.workspace_id = ${ws}::uuid and p.purchase_order_id = ${purchaseOrderId} and h.match_status = 'exception'
      and h.status not in ('draft', 'cancelled') order by h.id`);
  const spec = documentSpec("supplier_invoice");
  for (const r of res.rows as Array<{ id: number | string }>) {
    const id = Number(r.id);
    const header = (await lockHeader(tx, spec, ws, id)) as Row;
    const after = await runThreeWay(tx, caller, spec, id);
    if (after !== header.match_status) {
      const status = String(header.status);
      await writeEvent(tx, caller, {
        type: "supplier_invoice",
        docId: id,
        action: "three_way_check",
        from: status,
        to: status,
        changes: { match_status: [header.match_status, after] },
      });
    }
  }
}

// The figures SUPPLIER_INVOICE_RULE reads, in base currency: goods billed against an order line at the value they
// were (or will be) received at; the rest of each such line's amount is price variance; other lines are expenses.
async function postingFigures(tx: Tx, ws: string, header: Row, lines: readonly Row[]) {
  const rate = String(header.rate ?? "1");
  const goods = lines.filter((l) => l.purchase_order_line_id != null && l.product_id != null);
  const costs = await receiptUnitCosts(
    tx,
    ws,
    goods.map((l) => Number(l.purchase_order_line_id)),
  );
  let received = new Dec(0);
  for (const l of goods) {
    received = received.plus(money(dec(String(l.qty)).times(dec(costs.get(Number(l.purchase_order_line_id)) ?? "0"))));
  }
  let expense = new Dec(0);
  for (const l of lines) if (!goods.includes(l)) expense = expense.plus(toBase(String(l.net_amount), rate));
  const net = dec(toBase(String(header.net_total), rate));
  return {
    received_value: money(received),
    expense_total: money(expense),
    price_variance: money(net.minus(received).minus(expense)),
    tax_total: toBase(String(header.tax_total), rate),
    total: String(header.base_total),
  };
}

const submit: Effect = async (tx, caller, spec, doc, step) => {
  const ws = caller.workspaceId as string;
  const id = Number(doc.header.id);
  await refuseUsedNumber(tx, ws, doc.header, id);
  await linkLines(tx, ws, doc.header, doc.lines);
  await updateRow(tx, spec.header, ws, id, { due_date: await dueDate(tx, ws, doc.header) });
  await settleReceivable(tx, caller, spec, id);
  const verdict = await runThreeWay(tx, caller, spec, id);
  const lines = await loadLines(tx, spec, ws, id);
  await postJournal(
    tx,
    caller,
    { type: spec.machine.type, id, number: step.number, date: String(doc.header.doc_date) },
    SUPPLIER_INVOICE_RULE,
    await postingFigures(tx, ws, doc.header, lines),
  );
  await writeEvent(tx, caller, {
    type: spec.machine.type,
    docId: id,
    action: "three_way_check",
    from: step.to,
    to: step.to,
    changes: { match_status: [null, verdict] },
  });
};

// Who released it, when and why, on the invoice; the engine's audit row keeps the reason too.
const release: Effect = async (tx, caller, spec, doc, step) => {
  await updateRow(tx, spec.header, caller.workspaceId as string, Number(doc.header.id), {
    match_status: "released",
    released_by: caller.userId,
    released_at: new Date().toISOString(),
    release_reason: step.reason ?? null,
  });
};

const cancel: Effect = async (tx, caller, spec, doc, step) => {
  if (step.from === spec.machine.initial) return;
  const id = Number(doc.header.id);
  const paid = await tx.execute(sql`select a.payment_type, a.payment_id from payment_allocation a
    where a.workspace_id = ${caller.workspaceId}::uuid and a.document_type = 'supplier_invoice' and a.document_id = ${id}
    order by a.id limit 1`);
  if (paid.rows.length) {
    throw conflict("A payment is allocated to this supplier invoice: cancel the payment first", { reason: "paid" });
  }
  await reverseJournals(tx, caller, {
    type: spec.machine.type,
    id,
    number: (doc.header.number as string | null) ?? null,
    date: await today(tx),
  });
};

export const SUPPLIER_INVOICE_EFFECTS = { submit, release, cancel };
