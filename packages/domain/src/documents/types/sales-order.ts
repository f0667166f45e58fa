import { defineDocumentType } from "../machine.ts";
import { type SalesOrderLine, salesOrderStatus } from "../quantities.ts";
import { type DocSnapshot, needsLines } from "./snapshot.ts";

// Issue 10 §2: a submitted order's status follows its lines' delivered and billed quantities (ERPNext's status_map,
// quantities.ts salesOrderStatus); On Hold, Closed and Cancelled are set by actions and stay.
const OPEN = ["to_deliver_and_bill", "to_deliver", "to_bill"] as const;

const orderLines = (doc: DocSnapshot): SalesOrderLine[] =>
  doc.lines.map((l) => ({
    id: String(l.id ?? ""),
    qty: String(l.qty),
    qty_delivered: (l.qty_delivered as string | null) ?? "0",
    qty_billed: (l.qty_billed as string | null) ?? "0",
    deliverable: l.service_id == null,
  }));

const nothingDone = (doc: DocSnapshot) =>
  doc.lines.some((l) => Number(l.qty_delivered ?? 0) !== 0 || Number(l.qty_billed ?? 0) !== 0)
    ? "Part of this sales order is delivered or billed: cancel those documents first, or close the order"
    : null;

export const SALES_ORDER = defineDocumentType({
  type: "sales_order",
  title: "Sales order",
  plural: "Sales orders",
  feature: "erp",
  owner: { column: "created_by", yours: "your own sales orders" }, // issue 10 §3: a salesperson's own, by default
  statuses: {
    draft: { label: "Draft", color: "gray" },
    to_deliver_and_bill: { label: "To Deliver and Bill", color: "cyan", adjective: "open" },
    to_deliver: { label: "To Deliver", color: "cyan", adjective: "open" },
    to_bill: { label: "To Bill", color: "yellow", adjective: "open" },
    completed: { label: "Completed", color: "green" },
    on_hold: { label: "On Hold", color: "yellow" },
    closed: { label: "Closed", color: "purple" },
    cancelled: { label: "Cancelled", color: "red" },
  },
  transitions: [
    {
      action: "submit",
      from: ["draft"],
      to: "to_deliver_and_bill",
      permission: "sales_order.submit",
      guard: needsLines("sales order", "submitting"),
    },
    {
      action: "hold",
      label: "Put on hold",
      from: [...OPEN],
      to: "on_hold",
      permission: "sales_order.update",
      needsReason: true,
    },
    { action: "resume", from: ["on_hold"], to: "to_deliver_and_bill", permission: "sales_order.update" },
    { action: "close", from: [...OPEN, "on_hold"], to: "closed", permission: "sales_order.update" },
    { action: "reopen", from: ["closed"], to: "to_deliver_and_bill", permission: "sales_order.update" },
    {
      action: "cancel",
      from: ["draft", ...OPEN, "on_hold"],
      to: "cancelled",
      permission: "sales_order.cancel",
      guard: nothingDone,
    },
  ],
  // The open statuses are decided by the figures, whichever action lands on one of them.
  settle: (doc: DocSnapshot, to) =>
    (OPEN as readonly string[]).includes(to) || to === "completed" ? salesOrderStatus(orderLines(doc)) : to,
});

// ERPNext's make_sales_order: an order is made from a sent quotation, which is then won.
// A received customer order (the public order form) is confirmed by the sales order made from it.
export const SALES_ORDER_MADE_FROM = [
  { from: "quotation", sourceAction: "mark_won" },
  { from: "customer_order", sourceAction: "confirm" },
] as const;
