import {
  creditNote,
  creditNoteLine,
  debitNote,
  debitNoteLine,
  goodsReturnNote,
  goodsReturnNoteLine,
} from "../db/returns-schema.ts";
import { CREDIT_NOTE } from "../documents/types/credit-note.ts";
import { DEBIT_NOTE } from "../documents/types/debit-note.ts";
import { GOODS_RETURN_NOTE } from "../documents/types/goods-return-note.ts";
import { CATALOG } from "./catalog.ts";
import { documentHeaderFields, documentLineFields, documentResources } from "./documents.ts";
import { f } from "./fields.ts";

// Issue 10 §2: credit notes, debit notes and goods return notes, read through /rest/v1 (written by the document
// commands), pages at /dashboard/credit-notes, debit-notes and goods-return-notes (catalog.ts routes). Lines follow
// their document's permissions and keep no row count.

const ro = { readOnly: true };

export const [creditNoteResource, creditNoteLineResource] = documentResources(
  "credit_note",
  {
    entry: CATALOG.credit_note,
    table: creditNote,
    fields: documentHeaderFields(CREDIT_NOTE.statusNames, [
      f.ref("invoice_id", "Invoice", "invoice", "number", { list: true }),
      f.money("applied", "Applied to the invoice", ro),
      f.money("unapplied", "Customer credit", { ...ro, list: true }),
    ]),
  },
  {
    entry: CATALOG.credit_note_line,
    table: creditNoteLine,
    fields: documentLineFields("credit_note", [
      f.ref("invoice_line_id", "Invoice line", "invoice_line", "description"),
    ]),
  },
);

export const [debitNoteResource, debitNoteLineResource] = documentResources(
  "debit_note",
  {
    entry: CATALOG.debit_note,
    table: debitNote,
    fields: documentHeaderFields(DEBIT_NOTE.statusNames, [
      f.ref("invoice_id", "Invoice", "invoice", "number", { list: true }),
      f.date("due_date", "Due date", { list: true }),
      f.money("outstanding", "Outstanding", { ...ro, list: true }),
    ]),
  },
  { entry: CATALOG.debit_note_line, table: debitNoteLine, fields: documentLineFields("debit_note") },
);

export const [goodsReturnNoteResource, goodsReturnNoteLineResource] = documentResources(
  "goods_return_note",
  {
    entry: CATALOG.goods_return_note,
    table: goodsReturnNote,
    // Goods come back from a customer or go back to a supplier (its direction): the company is either.
    fields: documentHeaderFields(GOODS_RETURN_NOTE.statusNames, [
      f.enum("direction", "Direction", ["customer", "supplier"], { list: true }),
      f.ref("location_id", "Location", "location", "name", { list: true }),
    ]).map((field) => (field.name === "company_id" ? { ...field, label: "Customer or supplier" } : field)),
  },
  {
    entry: CATALOG.goods_return_note_line,
    table: goodsReturnNoteLine,
    fields: documentLineFields("goods_return_note", [
      f.ref("location_id", "Location", "location", "name"),
      f.number("qty_credited", "Credited", ro),
    ]),
  },
);
