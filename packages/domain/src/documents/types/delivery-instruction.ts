import { defineDocumentType } from "../machine.ts";
import { progress } from "../quantities.ts";
import { type DocSnapshot, needsLines } from "./snapshot.ts";

// Issue 10 §2 "Delivery instructions" (ERPNext's pick list, DOCUMENTS.md): what to pick from which location for which
// sales order lines, on which day, and which driver takes it. Draft → Released (to the warehouse) → Picked → Done;
// it moves no stock and posts nothing. A delivery order is made from a picked instruction; once delivery orders
// deliver all of it, it is Done (and Picked again if one is cancelled). Needs warehouse tracking (Pro).
const delivered = (doc: DocSnapshot) =>
  doc.lines.map((l) => ({ id: String(l.id ?? ""), qty: String(l.qty), qty_delivered: String(l.qty_delivered ?? "0") }));

export const DELIVERY_INSTRUCTION = defineDocumentType({
  type: "delivery_instruction",
  title: "Delivery instruction",
  plural: "Delivery instructions",
  feature: "warehouse_tracking",
  statuses: {
    draft: { label: "Draft", color: "gray" },
    released: { label: "Released", color: "blue" },
    picked: { label: "Picked", color: "yellow" },
    done: { label: "Done", color: "green" },
    cancelled: { label: "Cancelled", color: "red" },
  },
  transitions: [
    {
      action: "release",
      from: ["draft"],
      to: "released",
      permission: "delivery_instruction.submit",
      guard: needsLines("delivery instruction", "releasing"),
    },
    {
      action: "pick",
      label: "Mark picked",
      past: "marked picked",
      from: ["released"],
      to: "picked",
      permission: "delivery_instruction.update",
    },
    {
      action: "cancel",
      from: ["draft", "released", "picked"],
      to: "cancelled",
      permission: "delivery_instruction.cancel", // the server refuses it while a delivery order made from it stands
    },
  ],
  settle: (doc: DocSnapshot, to) =>
    to === "picked" || to === "done" ? (progress(delivered(doc), "qty_delivered") === "fully" ? "done" : "picked") : to,
});

// Made from an open sales order's goods lines, each defaulting to what is left to deliver on it; it takes nothing
// from the order (picking is not delivering), the delivery orders made from it do.
export const DELIVERY_INSTRUCTION_MADE_FROM = [
  {
    from: "sales_order",
    sourceStatuses: ["to_deliver_and_bill", "to_deliver"],
    defaultsTo: "qty_delivered",
    goodsOnly: true,
  },
] as const;
