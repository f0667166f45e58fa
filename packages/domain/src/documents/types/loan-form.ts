import { dec, plain } from "../decimal.ts";
import { defineDocumentType, type LineRow } from "../machine.ts";
import { type DocSnapshot, needsLines } from "./snapshot.ts";

// Issue 11: goods lent to a customer (demo units, equipment; DOCUMENTS.md "Loan form": ERPNext's transfer to an
// on-loan warehouse, reversed on return). Submit (Lend) moves each line from its location into the workspace's
// on-loan location — stock stays an asset, Dr 1220 Goods on Loan / Cr 1200 at cost. Return takes back quantities
// per line (Partly Returned until every line is back). What the customer keeps becomes a sales order
// (document_convert loan_form → sales_order, drawing qty_sold); once every line is returned or sold the loan is
// Returned, or Converted to Sale if anything was sold. Past its due-back date with goods still out it is Overdue
// (the status settles on the day, and a sweep moves loans that pass it). The deposit is recorded on the header only.
const OPEN = ["out", "partly_returned", "overdue", "returned", "converted"] as const;
const OUT = ["out", "partly_returned", "overdue"] as const;

const n = (v: unknown) => dec(String(v ?? "0"));

// What a line still has with the customer.
export const stillOut = (line: LineRow): string =>
  plain(n(line.qty).minus(n(line.qty_returned)).minus(n(line.qty_sold)));

const anyOut = (doc: DocSnapshot) => (doc.lines ?? []).some((l) => n(stillOut(l)).greaterThan(0));

export function loanStatus(doc: DocSnapshot): (typeof OPEN)[number] {
  const lines = doc.lines ?? [];
  if (!anyOut(doc)) return lines.some((l) => n(l.qty_sold).greaterThan(0)) ? "converted" : "returned";
  const due = doc.header?.due_date == null ? null : String(doc.header.due_date).slice(0, 10);
  if (due && doc.today > due) return "overdue";
  return lines.some((l) => n(l.qty_returned).greaterThan(0) || n(l.qty_sold).greaterThan(0))
    ? "partly_returned"
    : "out";
}

export const LOAN_FORM = defineDocumentType({
  type: "loan_form",
  title: "Loan form",
  plural: "Loan forms",
  feature: "erp",
  statuses: {
    draft: { label: "Draft", color: "gray" },
    out: { label: "Out", color: "blue", adjective: "lent" },
    partly_returned: { label: "Partly Returned", color: "cyan" },
    overdue: { label: "Overdue", color: "red" },
    returned: { label: "Returned", color: "green" },
    converted: { label: "Converted to Sale", color: "purple", adjective: "sold" },
    cancelled: { label: "Cancelled", color: "gray" },
  },
  transitions: [
    {
      action: "submit",
      label: "Lend",
      past: "lent",
      from: ["draft"],
      to: "out",
      permission: "loan_form.submit",
      guard: (doc: DocSnapshot) =>
        needsLines("loan form", "lending")(doc) ??
        (doc.lines.some((l) => l.product_id == null) ? "Every line of a loan form lends a product" : null) ??
        (doc.header.due_date != null && String(doc.header.due_date) < String(doc.header.doc_date)
          ? "The due-back date cannot be before the loan's date"
          : null),
    },
    {
      action: "return",
      label: "Return",
      from: [...OUT],
      to: "partly_returned",
      permission: "loan_form.return",
      inputs: [
        {
          field: "qty_returned",
          label: "Returned",
          kind: "line_qty",
          required: true,
          prompt: "Give the quantity returned on at least one line",
          left: stillOut,
        },
      ],
    },
    // Only while nothing has come back or been sold: after that the loan's history is in its lines.
    {
      action: "cancel",
      from: ["draft", "out", "overdue"],
      to: "cancelled",
      permission: "loan_form.cancel",
      guard: (doc: DocSnapshot) =>
        (doc.lines ?? []).some((l) => n(l.qty_returned).greaterThan(0) || n(l.qty_sold).greaterThan(0))
          ? "Goods of this loan were returned or sold; it cannot be cancelled"
          : null,
    },
  ],
  settle: (doc: DocSnapshot, to) => ((OPEN as readonly string[]).includes(to) ? loanStatus(doc) : to),
});

// What the customer keeps becomes a sales order: from a loan with goods still out, each line defaulting to what is
// neither returned nor sold (qty_sold shares the line's quantity with qty_returned).
export const SALES_ORDER_FROM_LOAN = {
  from: "loan_form",
  draws: "qty_sold",
  sourceStatuses: [...OUT],
  goodsOnly: true,
} as const;
