import { defineDocumentType } from "../machine.ts";
import { progress } from "../quantities.ts";
import { PURCHASE_ORDER_OPEN } from "./purchase-order.ts";
import { type DocSnapshot, needsLines } from "./snapshot.ts";

// Issue 11: goods received from a supplier against a purchase order (ERPNext's purchase receipt, Odoo's incoming
// picking). Submitting it puts the accepted quantity into stock at the order's price in base currency, moves each
// product's cost to the moving average and posts Dr 1200 Stock / Cr 2100 Stock Received But Not Billed (the
// server's effects); its status then follows how much of it is billed: To Bill, then Completed. Cancel reverses the
// moves and the entry, and waits for the supplier invoices made from it.
const OPEN = ["to_bill", "completed"] as const;

const billed = (doc: DocSnapshot) =>
  doc.lines.map((l) => ({ id: String(l.id ?? ""), qty: String(l.qty), qty_billed: String(l.qty_billed ?? "0") }));

export const SUPPLIER_DELIVERY_ORDER = defineDocumentType({
  type: "supplier_delivery_order",
  title: "Supplier delivery order",
  plural: "Supplier delivery orders",
  feature: "erp",
  buying: true,
  statuses: {
    draft: { label: "Draft", color: "gray" },
    to_bill: { label: "To Bill", color: "yellow", adjective: "submitted" },
    completed: { label: "Completed", color: "green" },
    cancelled: { label: "Cancelled", color: "red" },
  },
  transitions: [
    {
      action: "submit",
      from: ["draft"],
      to: "to_bill",
      permission: "supplier_delivery_order.submit",
      guard: (doc: DocSnapshot) =>
        needsLines("supplier delivery order", "submitting")(doc) ??
        (doc.header.source_type !== "purchase_order"
          ? "A supplier delivery order is made from a purchase order: receive the goods from their order"
          : null),
    },
    { action: "cancel", from: ["draft", ...OPEN], to: "cancelled", permission: "supplier_delivery_order.cancel" },
  ],
  settle: (doc: DocSnapshot, to) =>
    (OPEN as readonly string[]).includes(to)
      ? progress(billed(doc), "qty_billed") === "fully"
        ? "completed"
        : "to_bill"
      : to,
});

// From an open purchase order (approved), each goods line defaulting to what is left to receive; the order's lines
// count what submitted receipts accept (qty_received).
export const SUPPLIER_DELIVERY_ORDER_MADE_FROM = [
  {
    from: "purchase_order",
    draws: "qty_received",
    sourceStatuses: PURCHASE_ORDER_OPEN.filter((s) => s !== "to_bill"),
    goodsOnly: true,
  },
] as const;
