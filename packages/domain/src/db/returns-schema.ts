import { sql } from "drizzle-orm";
import { bigint, check, date, index, numeric, pgTable, text } from "drizzle-orm/pg-core";
import { sameWorkspace } from "./columns.ts";
import {
  documentHeaderColumns,
  documentHeaderKeys,
  documentLineColumns,
  documentLineKeys,
} from "./document-columns.ts";
import { location } from "./master-schema.ts";
import { invoice, invoiceLine } from "./selling-schema.ts";

// Credit notes, debit notes and goods return notes (issue 10 §2, DESIGN §2.3.1 "Tables"). Written only through the
// document commands; /rest/v1 reads them, lines embedded as select=*,lines:credit_note_line(*).

const money = (name: string) => numeric(name, { precision: 14, scale: 2 }).notNull().default(sql`0`);
const qty = (name: string) => numeric(name, { precision: 14, scale: 3 });

// What is taken back from a customer's invoice: a price correction (lines that only carry an amount) or returned
// goods (lines linked to the invoice's lines, or made from a goods return note). `applied` is the part that lowered
// the invoice's outstanding (a payment_allocation row of payment_type credit_note); `unapplied` the rest, which the
// invoice no longer owed: the customer's credit, like a receipt's unallocated amount.
export const creditNote = pgTable(
  "credit_note",
  {
    ...documentHeaderColumns,
    invoiceId: bigint("invoice_id", { mode: "number" }),
    applied: money("applied"),
    unapplied: money("unapplied"),
  },
  (t) => [
    ...documentHeaderKeys("credit_note", t),
    index("credit_note_invoice_idx").on(t.workspaceId, t.invoiceId),
    sameWorkspace("credit_note_invoice_fk", [t.workspaceId, t.invoiceId], invoice),
  ],
).enableRLS();

export const creditNoteLine = pgTable(
  "credit_note_line",
  {
    ...documentLineColumns,
    invoiceLineId: bigint("invoice_line_id", { mode: "number" }), // the invoice line whose quantity it credits
    creditNoteId: bigint("credit_note_id", { mode: "number" }).notNull(),
  },
  (t) => [
    ...documentLineKeys("credit_note_line", t, { column: t.creditNoteId, table: creditNote }),
    sameWorkspace("credit_note_line_invoice_line_fk", [t.workspaceId, t.invoiceLineId], invoiceLine),
  ],
).enableRLS();

// Extra charges against an earlier invoice (ERPNext's is_debit_note, Odoo's account_debit_note): a receivable of its
// own, with a due date and an outstanding amount that receipts pay, like an invoice's.
export const debitNote = pgTable(
  "debit_note",
  {
    ...documentHeaderColumns,
    invoiceId: bigint("invoice_id", { mode: "number" }),
    dueDate: date("due_date"),
    outstanding: money("outstanding"),
  },
  (t) => [
    ...documentHeaderKeys("debit_note", t),
    index("debit_note_invoice_idx").on(t.workspaceId, t.invoiceId),
    sameWorkspace("debit_note_invoice_fk", [t.workspaceId, t.invoiceId], invoice),
  ],
).enableRLS();

export const debitNoteLine = pgTable(
  "debit_note_line",
  { ...documentLineColumns, debitNoteId: bigint("debit_note_id", { mode: "number" }).notNull() },
  (t) => documentLineKeys("debit_note_line", t, { column: t.debitNoteId, table: debitNote }),
).enableRLS();

// Goods coming back (ERPNext's return delivery note, Odoo's stock.return.picking): from a customer against a
// delivery order now; `supplier` comes with purchasing. Its lines push qty_returned back to the delivery order's and
// the sales order's lines and are credited in turn (qty_credited).
export const goodsReturnNote = pgTable(
  "goods_return_note",
  {
    ...documentHeaderColumns,
    direction: text("direction").notNull().default("customer"),
    locationId: bigint("location_id", { mode: "number" }),
  },
  (t) => [
    ...documentHeaderKeys("goods_return_note", t),
    sameWorkspace("goods_return_note_location_fk", [t.workspaceId, t.locationId], location),
    check("goods_return_note_direction", sql`${t.direction} in ('customer', 'supplier')`),
  ],
).enableRLS();

export const goodsReturnNoteLine = pgTable(
  "goods_return_note_line",
  {
    ...documentLineColumns,
    locationId: bigint("location_id", { mode: "number" }),
    qtyCredited: qty("qty_credited").notNull().default(sql`0`),
    goodsReturnNoteId: bigint("goods_return_note_id", { mode: "number" }).notNull(),
  },
  (t) => [
    ...documentLineKeys("goods_return_note_line", t, { column: t.goodsReturnNoteId, table: goodsReturnNote }),
    sameWorkspace("goods_return_note_line_location_fk", [t.workspaceId, t.locationId], location),
  ],
).enableRLS();
