import { creditNote, creditNoteLine } from "@workmetrics/domain/db/returns-schema";
import { invoice } from "@workmetrics/domain/db/selling-schema";
import { Dec, dec, money } from "@workmetrics/domain/documents/decimal";
import { CREDIT_NOTE_RULE } from "@workmetrics/domain/documents/postings";
import { checkOverflow } from "@workmetrics/domain/documents/quantities";
import { toBase } from "@workmetrics/domain/documents/totals";
import type Decimal from "decimal.js";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { postJournal, reverseJournals } from "../../platform/documents/ledger.ts";
import { conflict, invalid, notFound } from "../../platform/documents/refusals.ts";
import { documentSpec, type Effect, type PrepareConvert } from "../../platform/documents/registry.ts";
import { type RowOf, rowOf, rowsOf } from "../../platform/documents/rows.ts";
import { loadLines, lockHeader, type Row, today, updateRow } from "../../platform/documents/store.ts";
import { settleDebitNote } from "./debit-note.effects.ts";
import { settleInvoice } from "./invoice.effects.ts";

// Issue 10 §2: what a credit note does besides its status. Issuing it, under the invoice's lock: each line linked to
// an invoice line fits in what that line has not had credited (named line and quantity left), all credit notes
// together never pass the invoice's total; the part the invoice still owed is applied to it (a payment_allocation
// row of payment_type credit_note, so its outstanding is recomputed like a receipt's and never goes below zero), the
// rest is the customer's credit (`unapplied`); `credited` and the lines' qty_credited are recomputed by sum, the
// invoice re-settles (fully credited: Credit note issued) and Dr 4100 Sales Returns / Dr 2200 GST Output /
// Cr 1100 Trade Debtors is posted for the whole amount. Cancel undoes each step and posts the reversing entry.

const OPEN = new Set(["unpaid", "partly_paid", "paid", "overdue", "credit_note_issued"]);

const id = (name: string) => sql.identifier(name);

// A credit note made from an invoice names it and each line the invoice line it credits; one made from a goods
// return note finds the invoice that billed the returned delivery lines (through the delivery order or straight
// from the sales order) and takes that invoice's prices, discount and tax codes.
export const prepareCreditNote: PrepareConvert = async (tx, caller, source, draft) => {
  const ws = caller.workspaceId as string;
  if (source.spec.machine.type === "invoice") {
    return {
      header: { ...draft.header, invoice_id: Number(source.doc.header.id) },
      lines: draft.lines.map((l) => ({ ...l, invoice_line_id: Number(l.source_line_id) })),
    };
  }
  const grn = source.doc;
  const grnName = String(grn.header.number ?? "This goods return note");
  const deliveryId = Number(grn.header.source_id);
  const deliveryLines = grn.lines.map((l) => Number(l.source_line_id)).filter((n) => n > 0);
  const dol = await tx.execute(sql`select l.id, l.source_line_id, h.source_type, h.source_id
    from delivery_order_line l join delivery_order h on h.workspace_id = l.workspace_id and h.id = l.delivery_order_id
    where l.workspace_id = ${ws}::uuid and l.id = any(${`{${deliveryLines.join(",")}}`}::bigint[])`);
  const orderLine = new Map(
    (dol.rows as Array<{ id: number | string; source_line_id: number | string | null }>).map((r) => [
      Number(r.id),
      r.source_line_id == null ? null : Number(r.source_line_id),
    ]),
  );
  const orderId = (dol.rows[0] as { source_type: string | null; source_id: number | string | null } | undefined)
    ?.source_id;
  const orderLines = [...orderLine.values()].filter((n): n is number => n != null);
  const res = await tx.execute(sql`select il.id, il.invoice_id, i.number, il.source_line_id,
      il.unit_price::text as unit_price, il.discount_percent::text as discount_percent, il.tax_code,
      i.discount_percent::text as invoice_discount, i.currency, i.rate::text as rate
    from invoice_line il join invoice i on i.workspace_id = il.workspace_id and i.id = il.invoice_id
    where il.workspace_id = ${ws}::uuid and i.status not in ('draft', 'cancelled')
      and ((i.source_type = 'delivery_order' and i.source_id = ${deliveryId}
          and il.source_line_id = any(${`{${deliveryLines.join(",")}}`}::bigint[]))
        or (i.source_type = 'sales_order' and i.source_id = ${orderId == null ? null : Number(orderId)}
          and il.source_line_id = any(${`{${orderLines.join(",")}}`}::bigint[])))
    order by i.id, il.line_no`);
  const billed = res.rows as Row[];
  if (billed.length === 0) throw conflict(`${grnName} is not invoiced yet: there is nothing to credit`);
  const byLine = new Map(grn.lines.map((l) => [Number(l.id), l]));
  const billing = (line: Row) => {
    const grnLine = byLine.get(Number(line.source_line_id));
    const dl = Number(grnLine?.source_line_id);
    return billed.filter(
      (b) =>
        Number(b.source_line_id) === dl ||
        (orderLine.get(dl) != null && Number(b.source_line_id) === orderLine.get(dl)),
    );
  };
  const first = draft.lines.map(billing).find((b) => b.length > 0)?.[0];
  if (!first) throw conflict(`${grnName} is not invoiced yet: there is nothing to credit`);
  const invoiceId = Number(first.invoice_id);
  const lines = draft.lines.map((l, i) => {
    const il = billing(l).find((b) => Number(b.invoice_id) === invoiceId);
    if (!il) {
      throw conflict(`Line ${i + 1} of ${grnName} is not billed on ${first.number}: make its credit note separately`);
    }
    return {
      ...l,
      invoice_line_id: Number(il.id),
      unit_price: il.unit_price,
      discount_percent: il.discount_percent,
      tax_code: il.tax_code,
    };
  });
  return {
    header: {
      ...draft.header,
      invoice_id: invoiceId,
      currency: first.currency,
      rate: first.rate,
      discount_percent: first.invoice_discount,
      discount_amount: null,
    },
    lines,
  };
};

// qty_credited of every line of the invoice: Σ over the issued credit notes' lines that credit it. On issue, a line
// past its quantity is refused with what was left before this credit note.
async function recreditLines(
  tx: Tx,
  ws: string,
  invoiceId: number,
  name: string,
  doc?: RowOf<typeof creditNoteLine>[],
): Promise<void> {
  const invoiceLines = await tx.execute(sql`select id, qty::text as qty from invoice_line
    where workspace_id = ${ws}::uuid and invoice_id = ${invoiceId} order by line_no for update`);
  const sums = await tx.execute(sql`select l.invoice_line_id::text as id, sum(l.qty)::text as qty
    from credit_note_line l join credit_note h on h.workspace_id = l.workspace_id and h.id = l.credit_note_id
    where l.workspace_id = ${ws}::uuid and h.invoice_id = ${invoiceId} and h.status = 'issued'
      and l.invoice_line_id is not null group by l.invoice_line_id`);
  const credited = new Map((sums.rows as Array<{ id: string; qty: string }>).map((r) => [r.id, r.qty]));
  const lines = invoiceLines.rows as Array<{ id: number | string; qty: string }>;
  if (doc) {
    const mine = new Map<string, Decimal>();
    for (const l of doc) {
      if (l.invoice_line_id == null) continue;
      const k = String(l.invoice_line_id);
      mine.set(k, (mine.get(k) ?? new Dec(0)).plus(dec(l.qty)));
    }
    const before = lines.map((l) => ({
      id: String(l.id),
      qty: l.qty,
      qty_credited: dec(credited.get(String(l.id)) ?? "0")
        .minus(mine.get(String(l.id)) ?? 0)
        .toString(),
    }));
    const requested = doc
      .filter((l) => l.invoice_line_id != null)
      .map((l) => ({ source_line_id: String(l.invoice_line_id), qty: l.qty }));
    const over = checkOverflow(before, requested, "qty_credited");
    if (over) throw conflict(`${over} of ${name}`, { reason: "overflow", source: { type: "invoice", id: invoiceId } });
  }
  for (const l of lines) {
    await tx.execute(sql`update invoice_line set qty_credited = ${credited.get(String(l.id)) ?? "0"}::numeric
      where workspace_id = ${ws}::uuid and id = ${Number(l.id)}`);
  }
}

async function creditedTotal(tx: Tx, ws: string, invoiceId: number): Promise<string> {
  const res = await tx.execute(sql`select coalesce(sum(total), 0)::text as t from credit_note
    where workspace_id = ${ws}::uuid and invoice_id = ${invoiceId} and status = 'issued'`);
  return (res.rows[0] as { t: string }).t;
}

const submit: Effect = async (tx, caller, spec, doc, step) => {
  const ws = caller.workspaceId as string;
  const cn = rowOf(creditNote, doc.header);
  const cnLines = rowsOf(creditNoteLine, doc.lines);
  const invoices = documentSpec("invoice");
  const invoiceId = Number(cn.invoice_id);
  const found = await lockHeader(tx, invoices, ws, invoiceId);
  if (!found) throw notFound(invoices, invoiceId);
  const inv = rowOf(invoice, found);
  const name = inv.number ?? `Invoice ${invoiceId}`;
  if (!OPEN.has(inv.status)) {
    const label = invoices.machine.statuses[inv.status]?.label.toLowerCase() ?? inv.status;
    throw conflict(`${name} is ${label}: only a submitted invoice can be credited`);
  }
  if (inv.company_id !== cn.company_id) {
    throw invalid(`${name} is another customer's invoice`, "header.invoice_id");
  }
  const onInvoice = new Set((await loadLines(tx, invoices, ws, invoiceId)).map((l) => Number(l.id)));
  for (const [i, l] of cnLines.entries()) {
    if (l.invoice_line_id != null && !onInvoice.has(l.invoice_line_id)) {
      throw invalid(`Line ${i + 1} credits a line that is not on ${name}`, `lines.${i}.invoice_line_id`);
    }
  }
  await recreditLines(tx, ws, invoiceId, name, cnLines);
  const total = dec(cn.total);
  const credited = dec(await creditedTotal(tx, ws, invoiceId));
  if (credited.greaterThan(dec(inv.total))) {
    const left = Dec.max(dec(inv.total).minus(credited.minus(total)), 0);
    throw conflict(`Only ${money(left)} of ${money(inv.total)} is left to credit on ${name}`, {
      reason: "overflow",
    });
  }
  const owed = Dec.max(dec(inv.outstanding ?? "0"), 0);
  const applied = Dec.min(total, owed);
  await updateRow(tx, spec.header, ws, cn.id, { applied: money(applied), unapplied: money(total.minus(applied)) });
  if (applied.greaterThan(0)) {
    await tx.execute(sql`insert into payment_allocation
        (workspace_id, payment_type, payment_id, document_type, document_id, amount)
      values (${ws}::uuid, 'credit_note', ${cn.id}, 'invoice', ${invoiceId}, ${money(applied)}::numeric)`);
  }
  await updateRow(tx, invoices.header, ws, invoiceId, { credited: money(credited) });
  await settleInvoice(tx, caller, invoices, invoiceId, { credit_note: { id: cn.id, number: step.number } });
  const rate = cn.rate ?? "1";
  await postJournal(
    tx,
    caller,
    { type: spec.machine.type, id: cn.id, number: step.number, date: cn.doc_date },
    CREDIT_NOTE_RULE,
    {
      total: cn.base_total,
      net_total: toBase(cn.net_total, rate),
      tax_total: toBase(cn.tax_total, rate),
    },
  );
};

const cancel: Effect = async (tx, caller, spec, doc, step) => {
  if (step.from === spec.machine.initial) return;
  const ws = caller.workspaceId as string;
  const cn = rowOf(creditNote, doc.header);
  const invoices = documentSpec("invoice");
  const invoiceId = Number(cn.invoice_id);
  await lockHeader(tx, invoices, ws, invoiceId);
  // Its credit allocated later to other invoices and debit notes (allocate_credit) is taken back from them too.
  const elsewhere = await tx.execute(sql`delete from payment_allocation where workspace_id = ${ws}::uuid
    and payment_type = 'credit_note' and payment_id = ${cn.id} returning document_type, document_id`);
  await updateRow(tx, spec.header, ws, cn.id, { applied: "0", unapplied: "0" });
  await recreditLines(tx, ws, invoiceId, "");
  await updateRow(tx, invoices.header, ws, invoiceId, { credited: await creditedTotal(tx, ws, invoiceId) });
  const number = cn.number;
  const by = { credit_note: { id: cn.id, number, cancelled: true } };
  await settleInvoice(tx, caller, invoices, invoiceId, by);
  for (const a of elsewhere.rows as Array<{ document_type: string; document_id: number | string }>) {
    const id = Number(a.document_id);
    if (a.document_type === "invoice" && id !== invoiceId) await settleInvoice(tx, caller, invoices, id, by);
    if (a.document_type === "debit_note") await settleDebitNote(tx, caller, documentSpec("debit_note"), id, by);
  }
  await reverseJournals(tx, caller, { type: spec.machine.type, id: cn.id, number, date: await today(tx) });
};

export const CREDIT_NOTE_EFFECTS = { submit, cancel };

// An invoice cannot be cancelled while an issued credit note or a submitted debit note stands against it (named);
// registered before the invoice's own cancel effect.
export const refuseWhileAdjusted: Effect = async (tx, caller, spec, doc, step) => {
  if (step.from === spec.machine.initial) return;
  const ws = caller.workspaceId as string;
  for (const [type, title] of [
    ["credit_note", "Credit note"],
    ["debit_note", "Debit note"],
  ] as const) {
    const res = await tx.execute(sql`select number from ${id(type)} where workspace_id = ${ws}::uuid
      and invoice_id = ${Number(doc.header.id)} and status not in ('draft', 'cancelled') order by id limit 1`);
    const row = res.rows[0] as { number: string } | undefined;
    if (row) {
      throw conflict(`${title} ${row.number} stands against this invoice: cancel the ${title.toLowerCase()} first`, {
        reason: "adjusted",
        by: type,
      });
    }
  }
  await refuseWhileCreditAllocated(tx, ws, "invoice", Number(doc.header.id));
};

// A document paid in part by another credit note's credit (allocate_credit) cannot be cancelled, naming it.
export async function refuseWhileCreditAllocated(tx: Tx, ws: string, type: string, docId: number): Promise<void> {
  const res = await tx.execute(sql`select c.number from payment_allocation a
    join credit_note c on c.workspace_id = a.workspace_id and c.id = a.payment_id
    where a.workspace_id = ${ws}::uuid and a.payment_type = 'credit_note' and a.document_type = ${type}
      and a.document_id = ${docId} order by a.id limit 1`);
  const row = res.rows[0] as { number: string } | undefined;
  if (row) {
    throw conflict(
      `Credit note ${row.number}'s credit pays this ${type.replaceAll("_", " ")}: cancel the credit note first`,
      {
        reason: "paid",
      },
    );
  }
}
