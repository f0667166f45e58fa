import { defineDocumentType } from "../machine.ts";
import { progress } from "../quantities.ts";
import { type DocSnapshot, needsLines } from "./snapshot.ts";

// Issue 10 §2: goods a customer sends back against a delivery order (ERPNext's return delivery note, Odoo's reverse
// picking). Submit puts the goods back into a location at the cost they left at (Dr 1200 Stock / Cr 5000 COGS) and
// pushes qty_returned back to the delivery order's and the sales order's lines; its status then follows how much of
// it is credited: To Credit until a credit note takes every line, then Credited. Cancel reverses stock and entry,
// and waits for the credit notes made from it.
// Issue 11: goods sent back to a supplier (direction `supplier`, ERPNext's purchase receipt return) are made from a
// submitted supplier delivery order: stock out at the receipt's cost, qty_returned on the receipt's and the purchase
// order's lines; what the supplier already invoiced is debited against that invoice (its outstanding lowered) by
// the same note. Its status is Returned to Supplier.
const OPEN = ["to_credit", "credited"] as const;
const SOURCE = { customer: "delivery_order", supplier: "supplier_delivery_order" } as const;

const credited = (doc: DocSnapshot) =>
  doc.lines.map((l) => ({ id: String(l.id ?? ""), qty: String(l.qty), qty_credited: String(l.qty_credited ?? "0") }));

export const GOODS_RETURN_NOTE = defineDocumentType({
  type: "goods_return_note",
  title: "Goods return note",
  plural: "Goods return notes",
  feature: "erp",
  statuses: {
    draft: { label: "Draft", color: "gray" },
    to_credit: { label: "To Credit", color: "yellow", adjective: "submitted" },
    credited: { label: "Credited", color: "green" },
    returned: { label: "Returned to Supplier", color: "green", adjective: "returned" },
    cancelled: { label: "Cancelled", color: "red" },
  },
  transitions: [
    {
      action: "submit",
      from: ["draft"],
      to: "to_credit",
      permission: "goods_return_note.submit",
      guard: (doc: DocSnapshot) =>
        needsLines("goods return note", "submitting")(doc) ??
        (doc.header.source_type !== SOURCE[doc.header.direction === "supplier" ? "supplier" : "customer"]
          ? doc.header.direction === "supplier"
            ? "A goods return note to a supplier is made from a supplier delivery order"
            : "A goods return note is made from a delivery order"
          : null),
    },
    { action: "cancel", from: ["draft", ...OPEN, "returned"], to: "cancelled", permission: "goods_return_note.cancel" },
  ],
  settle: (doc: DocSnapshot, to) =>
    [...OPEN, "returned"].includes(to)
      ? doc.header?.direction === "supplier"
        ? "returned"
        : progress(credited(doc), "qty_credited") === "fully"
          ? "credited"
          : "to_credit"
      : to,
});

// From a submitted delivery order, each goods line defaulting to what is delivered and not yet returned; the
// returned quantity reaches the sales order's lines through the delivery order's (`indirect`: counted, never made
// from a sales order directly).
export const GOODS_RETURN_NOTE_MADE_FROM = [
  { from: "delivery_order", draws: "qty_returned", sourceStatuses: ["to_bill", "completed"], goodsOnly: true },
  { from: "sales_order", draws: "qty_returned", indirect: true },
  // To a supplier: from a submitted receipt, returning its purchase order's lines through it.
  { from: "supplier_delivery_order", draws: "qty_returned", sourceStatuses: ["to_bill", "completed"], goodsOnly: true },
  { from: "purchase_order", draws: "qty_returned", indirect: true },
] as const;
