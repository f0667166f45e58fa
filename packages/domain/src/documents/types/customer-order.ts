import { defineDocumentType } from "../machine.ts";
import { type DocSnapshot, needsLines } from "./snapshot.ts";

// Issue 10 §2 "Orders": what a customer sent through a public order form. It arrives Received with its ORD number;
// while received, staff may correct it (the customer, quantities) with document_save. Confirming it makes a sales
// order (document_convert customer_order → sales_order runs `confirm` in the same transaction, so a sales order is
// what confirms it); rejecting it needs a reason.
export const CUSTOMER_ORDER = defineDocumentType<"received" | "confirmed" | "rejected", DocSnapshot>({
  type: "customer_order",
  title: "Order",
  plural: "Orders",
  feature: "erp",
  initial: "received",
  statuses: {
    received: { label: "Received", color: "cyan" },
    confirmed: { label: "Confirmed", color: "green" },
    rejected: { label: "Rejected", color: "red" },
  },
  transitions: [
    {
      action: "confirm",
      from: ["received"],
      to: "confirmed",
      permission: "sales_order.create", // whoever may make the sales order confirms the order
      does: "confirm this order into a sales order",
      byConvert: "Confirm an order by creating its sales order",
      guard: (doc: DocSnapshot) =>
        needsLines("order", "confirming")(doc) ??
        (doc.header.company_id == null ? "Choose the customer this order is for before confirming it" : null),
    },
    {
      action: "reject",
      from: ["received"],
      to: "rejected",
      permission: "customer_order.update",
      needsReason: true,
      reasonPrompt: "Give a reason to reject the order (the customer may be told)",
    },
  ],
});
