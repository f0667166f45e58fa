import { supplierInvoice, supplierInvoiceLine } from "@workmetrics/domain/db/purchasing-schema";
import { Dec, dec, money } from "@workmetrics/domain/documents/decimal";
import { SUPPLIER_INVOICE_RULE } from "@workmetrics/domain/documents/postings";
import {
  type LikelyDuplicate,
  type MatchLine,
  supplierNumberKey,
  threeWayCheck,
} from "@workmetrics/domain/documents/three-way";
import { toBase } from "@workmetrics/domain/documents/totals";
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { postJournal, reverseJournals } from "../../platform/documents/ledger.ts";
import { conflict, notFound } from "../../platform/documents/refusals.ts";
import { documentSpec, type Effect, type PrepareConvert, type PrepareSave } from "../../platform/documents/registry.ts";
import { type RowOf, rowOf, rowsOf } from "../../platform/documents/rows.ts";
import { documentSettings } from "../../platform/documents/settings.ts";
import { loadLines, lockHeader, type Row, today, updateRow, writeEvent } from "../../platform/documents/store.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { settleReceivable } from "../documents/receivable.ts";
import { receiptUnitCost } from "./costs.ts";
import { prefillPurchasePrices } from "./pricing.ts";

// Issue 11: what a supplier invoice does besides its status. Submit refuses a supplier invoice number the supplier
// already used, links each line to the order line (and receipt line) it bills, runs the three-way check (three-way.ts:
// each line's match_exception, the header's match_status), fixes the due date and `outstanding`, and posts
// Dr 2100 at the receipt value of the goods billed, Dr 5020 the price variance, Dr 5000 lines for nothing received,
// Dr 1300 GST input / Cr 2000 Trade Creditors in base currency. Release records who let an exception through, when
// and why. Cancel is refused while a payment is allocated to it, and posts the reversing entry.

type Header = RowOf<typeof supplierInvoice>;
type Line = RowOf<typeof supplierInvoiceLine>;

// What the number checks read of an invoice: a saved one's header, or a draft not saved yet whose values come from
// the client (document_save parses them with the type's insert schema, which types none) or from document_convert.
// A draft is not a row: it is converted once, by numberDraft, never cast to the table's type.
type NumberDraft = { id: number | null; company_id: number | null; supplier_invoice_number: string | null };

const numberDraft = (header: Row, id: number | null): NumberDraft => ({
  id,
  company_id: header.company_id == null ? null : Number(header.company_id),
  supplier_invoice_number: header.supplier_invoice_number == null ? null : String(header.supplier_invoice_number),
});

const text = (v: string | null) => (v ?? "").trim();

// The supplier's number is theirs once per supplier (the unique index says so too, for a race): the earliest other
// invoice of the supplier that has it, as typed less case and spaces around.
function usedNumber(ws: string, header: NumberDraft): SQL {
  return sql`select json_build_object('id', id, 'number', number) from supplier_invoice
    where workspace_id = ${ws}::uuid and company_id = ${header.company_id} and status <> 'cancelled'
      and lower(trim(supplier_invoice_number)) = lower(${text(header.supplier_invoice_number)})
      and id <> ${header.id ?? 0}
    order by id limit 1`;
}

// The refusal names the invoice that has it.
function refuseUsed(header: NumberDraft, earlier: Earlier | null): void {
  if (!earlier) return;
  const which = earlier.number ?? `Draft supplier invoice ${earlier.id}`;
  throw conflict(`${which} already has the supplier's number ${text(header.supplier_invoice_number)}`, {
    reason: "duplicate_supplier_invoice_number",
    id: Number(earlier.id),
    field: "supplier_invoice_number", // the form shows it under the field
  });
}

const numbered = (header: NumberDraft) => text(header.supplier_invoice_number) !== "" && header.company_id != null;

// An earlier invoice of the same supplier whose number reads the same less spaces, dashes and case (the three-way
// check's "looks like"; supplierNumberKey in SQL).
function likeNumber(ws: string, header: NumberDraft, key: string): SQL {
  return sql`select json_build_object('number', number, 'supplier_invoice_number', supplier_invoice_number)
    from supplier_invoice where workspace_id = ${ws}::uuid and company_id = ${header.company_id}
      and id <> ${header.id ?? 0}
      and status not in ('draft', 'cancelled')
      and upper(regexp_replace(supplier_invoice_number, '[^A-Za-z0-9]', '', 'g')) = ${key}
    order by id limit 1`;
}

type Earlier = { id: number | string; number: string | null };

// What the supplier's number clashes with, the questions asked in one statement: `used` by another invoice, and
// `duplicate`, a submitted one it looks like.
async function numberChecks(
  tx: Tx,
  ws: string,
  header: NumberDraft,
  ask: { used?: boolean; duplicate?: boolean },
): Promise<{ used: Earlier | null; duplicate: LikelyDuplicate | null }> {
  const key = supplierNumberKey(text(header.supplier_invoice_number));
  const asked: SQL[] = [];
  if (ask.used && numbered(header)) asked.push(sql`(${usedNumber(ws, header)}) as used`);
  if (ask.duplicate && key && header.company_id != null) asked.push(sql`(${likeNumber(ws, header, key)}) as duplicate`);
  if (asked.length === 0) return { used: null, duplicate: null };
  const res = await tx.execute(sql`select ${sql.join(asked, sql`, `)}`);
  const row = res.rows[0] as { used?: Earlier | null; duplicate?: LikelyDuplicate | null };
  return { used: row.used ?? null, duplicate: row.duplicate ?? null };
}

async function refuseUsedNumber(tx: Tx, ws: string, draft: NumberDraft): Promise<void> {
  refuseUsed(draft, (await numberChecks(tx, ws, draft, { used: true })).used);
}

// document_save: the number checked as soon as it is typed, and product lines priced at what we pay.
export const prepareSupplierInvoice: PrepareSave = async (tx, caller, spec, draft) => {
  await refuseUsedNumber(tx, caller.workspaceId as string, numberDraft(draft.header, draft.id));
  return prefillPurchasePrices(tx, caller, spec, draft);
};

// document_convert: a number given with the conversion is checked the same way.
export const prepareSupplierInvoiceConvert: PrepareConvert = async (tx, caller, _source, draft) => {
  await refuseUsedNumber(tx, caller.workspaceId as string, numberDraft(draft.header, null));
  return draft;
};

// A line's price net of its own discount, in base currency: what the check compares (document discounts aside).
const netPrice = (line: { unit_price: string; discount_percent: string | null }, rate: string) =>
  dec(line.unit_price)
    .times(new Dec(100).minus(dec(line.discount_percent ?? "0")))
    .dividedBy(100)
    .times(dec(rate));

type OrderLine = {
  id: number;
  qty: string;
  unit_price: string;
  discount_percent: string;
  net_amount: string;
  rate: string;
  qty_received: string;
  qty_billed: string;
  receipt_line: number | null; // the receipt line it was reached through
};

// The order line an invoice line bills, among those read.
const billedOf = (po: ReadonlyMap<number, OrderLine>, l: Line) =>
  l.purchase_order_line_id == null ? undefined : po.get(l.purchase_order_line_id);

const ORDER_LINE = sql`l.id, l.qty::text as qty, l.unit_price::text as unit_price,
  l.discount_percent::text as discount_percent, l.net_amount::text as net_amount, h.rate::text as rate,
  l.qty_received::text as qty_received, l.qty_billed::text as qty_billed`;
const ORDER_OF = sql`purchase_order_line l join purchase_order h on h.workspace_id = l.workspace_id and h.id = l.purchase_order_id`;

// The order lines an invoice's lines bill, in one read: those it names, and those behind the receipt lines it was
// made from (each with the receipt line it was reached through).
async function orderLines(
  tx: Tx,
  ws: string,
  ids: readonly number[],
  receiptLines: readonly number[],
): Promise<OrderLine[]> {
  const list = (xs: readonly number[]) => `{${[...new Set(xs)].join(",")}}`;
  const parts: SQL[] = [];
  if (ids.length) {
    parts.push(sql`select ${ORDER_LINE}, null::bigint as receipt_line from ${ORDER_OF}
      where l.workspace_id = ${ws}::uuid and l.id = any(${list(ids)}::bigint[])`);
  }
  if (receiptLines.length) {
    parts.push(sql`select ${ORDER_LINE}, r.id as receipt_line from supplier_delivery_order_line r join ${ORDER_OF}
      on l.workspace_id = r.workspace_id and l.id = r.source_line_id
      where r.workspace_id = ${ws}::uuid and r.id = any(${list(receiptLines)}::bigint[])`);
  }
  if (parts.length === 0) return [];
  const res = await tx.execute(sql.join(parts, sql` union all `));
  return (res.rows as OrderLine[]).map((r) => ({
    ...r,
    id: Number(r.id),
    receipt_line: r.receipt_line == null ? null : Number(r.receipt_line),
  }));
}

// Each line with the order line (and receipt line) it bills: from the lines it was made from (a receipt's lines
// name their order lines), else as stored.
function linked(header: Header, lines: readonly Line[], found: readonly OrderLine[]): Line[] {
  const from = header.source_type;
  const viaReceipt = new Map(found.filter((o) => o.receipt_line != null).map((o) => [o.receipt_line, o.id]));
  return lines.map((l) => {
    if (l.source_line_id == null) return l;
    const source = l.source_line_id;
    if (from === "purchase_order") return { ...l, purchase_order_line_id: source };
    if (from !== "supplier_delivery_order") return l;
    return { ...l, supplier_delivery_order_line_id: source, purchase_order_line_id: viaReceipt.get(source) ?? null };
  });
}

// The three-way check over the invoice `header` with its `lines` (the order lines they bill read once), written
// onto its lines (with their links); answers the verdict for the header, the lines as written and the order lines.
// `known`: the likely duplicate when the caller asked already. An invoice someone released stays released.
async function runThreeWay(
  tx: Tx,
  caller: Caller,
  header: Header,
  given: readonly Line[],
  known?: LikelyDuplicate | null,
): Promise<{ verdict: string; lines: Line[]; po: Map<number, OrderLine> }> {
  const ws = caller.workspaceId as string;
  const id = header.id;
  // Linked to their order lines where they were made from them; a receipt's lines name theirs in the same read.
  const fromReceipt = header.source_type === "supplier_delivery_order";
  const named = linked(header, given, []);
  const found = await orderLines(
    tx,
    ws,
    named.flatMap((l) =>
      l.purchase_order_line_id != null && !(fromReceipt && l.source_line_id != null) ? [l.purchase_order_line_id] : [],
    ),
    named.flatMap((l) => (fromReceipt && l.source_line_id != null ? [l.source_line_id] : [])),
  );
  const po = new Map(found.map((o) => [o.id, o]));
  const lines = linked(header, given, found);
  const matchLines: MatchLine[] = lines.map((l) => {
    const o = billedOf(po, l);
    if (!o) return { qty: l.qty, unit_price: netPrice(l, header.rate), po: null };
    // The order line's qty_billed counts this invoice already (the engine recomputed it before the effects ran).
    const before = Dec.max(dec(o.qty_billed).minus(dec(l.qty)), 0);
    return {
      qty: l.qty,
      unit_price: netPrice(l, header.rate),
      po: {
        qty: o.qty,
        unit_price: netPrice(o, o.rate),
        received: o.qty_received,
        billed_before: before,
      },
    };
  });
  const settings = await documentSettings(tx, ws);
  const duplicate = known === undefined ? (await numberChecks(tx, ws, header, { duplicate: true })).duplicate : known;
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
    // Links and reasons, every line in one statement.
    const rows = lines.map((l, i) => ({
      id: l.id,
      po: l.purchase_order_line_id ?? null,
      receipt: l.supplier_delivery_order_line_id ?? null,
      reason: result.exceptions[i],
    }));
    await tx.execute(sql`update supplier_invoice_line l set purchase_order_line_id = v.po,
        supplier_delivery_order_line_id = v.receipt, match_exception = v.reason
      from json_to_recordset(${JSON.stringify(rows)}::json) as v(id bigint, po bigint, receipt bigint, reason text)
      where l.workspace_id = ${ws}::uuid and l.supplier_invoice_id = ${id} and l.id = v.id`);
  }
  const verdict = header.match_status === "released" ? "released" : result.status;
  return { verdict, lines, po };
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
    const found = await lockHeader(tx, spec, ws, id);
    if (!found) throw notFound(spec, id);
    const header = rowOf(supplierInvoice, found);
    const lines = rowsOf(supplierInvoiceLine, await loadLines(tx, spec, ws, id));
    const { verdict: after } = await runThreeWay(tx, caller, header, lines);
    await updateRow(tx, spec.header, ws, id, { match_status: after });
    if (after !== header.match_status) {
      const status = header.status;
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
function postingFigures(header: Header, lines: readonly Line[], po: ReadonlyMap<number, OrderLine>) {
  const rate = header.rate;
  const goods = lines.filter((l) => l.purchase_order_line_id != null && l.product_id != null);
  let received = new Dec(0);
  for (const l of goods) {
    const o = billedOf(po, l);
    const cost = o ? receiptUnitCost(o.qty, o.net_amount, o.rate) : "0";
    received = received.plus(money(dec(l.qty).times(dec(cost))));
  }
  let expense = new Dec(0);
  for (const l of lines) if (!goods.includes(l)) expense = expense.plus(toBase(l.net_amount, rate));
  const net = dec(toBase(header.net_total, rate));
  return {
    received_value: money(received),
    expense_total: money(expense),
    price_variance: money(net.minus(received).minus(expense)),
    tax_total: toBase(header.tax_total, rate),
    total: header.base_total,
  };
}

// Submit: the supplier's number asked about once (used: refused; looks like another: an exception), the lines
// linked and checked in one write, the due date and outstanding in another, the entry with the number.
const submit: Effect = async (tx, caller, spec, doc, step) => {
  const ws = caller.workspaceId as string;
  const header = rowOf(supplierInvoice, doc.header);
  const id = header.id;
  const clash = await numberChecks(tx, ws, header, { used: true, duplicate: true });
  refuseUsed(header, clash.used);
  const given = rowsOf(supplierInvoiceLine, doc.lines);
  const { verdict, lines, po } = await runThreeWay(tx, caller, header, given, clash.duplicate);
  await settleReceivable(tx, caller, spec, id, undefined, {
    header: doc.header,
    lines,
    fallsDue: true,
    set: { match_status: verdict },
  });
  await postJournal(
    tx,
    caller,
    { type: spec.machine.type, id, number: step.number, date: header.doc_date },
    SUPPLIER_INVOICE_RULE,
    postingFigures(header, lines, po),
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
  await updateRow(tx, spec.header, caller.workspaceId as string, rowOf(supplierInvoice, doc.header).id, {
    match_status: "released",
    released_by: caller.userId,
    released_at: new Date().toISOString(),
    release_reason: step.reason ?? null,
  });
};

const cancel: Effect = async (tx, caller, spec, doc, step) => {
  if (step.from === spec.machine.initial) return;
  const { id, number } = rowOf(supplierInvoice, doc.header);
  const paid = await tx.execute(sql`select a.payment_type, a.payment_id from payment_allocation a
    where a.workspace_id = ${caller.workspaceId}::uuid and a.document_type = 'supplier_invoice' and a.document_id = ${id}
    order by a.id limit 1`);
  if (paid.rows.length) {
    throw conflict("A payment is allocated to this supplier invoice: cancel the payment first", { reason: "paid" });
  }
  await reverseJournals(tx, caller, {
    type: spec.machine.type,
    id,
    number,
    date: await today(tx),
  });
};

export const SUPPLIER_INVOICE_EFFECTS = { submit, release, cancel };
