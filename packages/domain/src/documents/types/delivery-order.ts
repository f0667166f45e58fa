import { defineDocumentType } from "../machine.ts";
import { progress } from "../quantities.ts";
import { type DocSnapshot, needsLines } from "./snapshot.ts";

// Issue 10 §2: goods leaving a location for a customer. Submitting it takes stock out and posts the cost of the goods
// (the server's effects); its status then follows how much of it is billed: To Bill until every line is invoiced,
// then Completed. Cancel reverses the moves and the entry.
const OPEN = ["to_bill", "completed"] as const;

const billed = (doc: DocSnapshot) =>
  doc.lines.map((l) => ({ id: String(l.id ?? ""), qty: String(l.qty), qty_billed: String(l.qty_billed ?? "0") }));

export const DELIVERY_ORDER = defineDocumentType({
  type: "delivery_order",
  title: "Delivery order",
  plural: "Delivery orders",
  feature: "erp",
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
      permission: "delivery_order.submit",
      guard: needsLines("delivery order", "submitting"),
    },
    {
      action: "cancel",
      from: ["draft", ...OPEN],
      to: "cancelled",
      permission: "delivery_order.cancel", // the server refuses it while an invoice bills it, naming the invoice
    },
  ],
  settle: (doc: DocSnapshot, to) =>
    (OPEN as readonly string[]).includes(to)
      ? progress(billed(doc), "qty_billed") === "fully"
        ? "completed"
        : "to_bill"
      : to,
});

// ERPNext's make_delivery_note: from an open sales order (a fully delivered one answers that nothing is left), each
// goods line defaulting to what is left to deliver; the
// order's lines count what submitted deliveries take (qty_delivered).
export const DELIVERY_ORDER_MADE_FROM = [
  {
    from: "sales_order",
    draws: "qty_delivered",
    sourceStatuses: ["to_deliver_and_bill", "to_deliver", "to_bill"],
    goodsOnly: true,
  },
  // From a picked delivery instruction: its lines draw qty_delivered from the instruction's lines and, through them,
  // from the sales order's (draws.ts).
  { from: "delivery_instruction", draws: "qty_delivered", sourceStatuses: ["picked"] },
] as const;
