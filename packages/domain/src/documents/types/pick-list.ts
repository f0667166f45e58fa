import { defineDocumentType } from "../machine.ts";
import { type DocSnapshot, needsLines } from "./snapshot.ts";

// Issue 22 "Warehouse" (DESIGN §2.3.2): what to pick for a sales order or a released delivery instruction, each line
// with the location and shelf (product_bin) it is picked from, in walking order. Made and numbered at once by
// pick_list_make (Picking); the storekeeper scans what is picked (pick_list_pick writes qty_picked); finishing makes
// the delivery order draft with the picked quantities through the engine's conversion of the source (Done). It moves
// no stock and posts nothing (the delivery order does). Needs warehouse tracking (Pro).
export const PICK_LIST = defineDocumentType({
  type: "pick_list",
  title: "Pick list",
  plural: "Pick lists",
  feature: "warehouse_tracking",
  statuses: {
    draft: { label: "Draft", color: "gray" },
    picking: { label: "Picking", color: "yellow", adjective: "open" },
    done: { label: "Done", color: "green", adjective: "finished" },
    cancelled: { label: "Cancelled", color: "red" },
  },
  transitions: [
    {
      action: "submit",
      label: "Start picking",
      past: "started",
      from: ["draft"],
      to: "picking",
      permission: "pick_list.submit",
      guard: needsLines("pick list", "starting"),
    },
    {
      action: "finish",
      label: "Finish",
      past: "finished",
      from: ["picking"],
      to: "done",
      permission: "pick_list.submit",
      guard: (doc: DocSnapshot) =>
        doc.lines.some((l) => Number(l.qty_picked ?? 0) > 0)
          ? null
          : "Nothing is picked yet: scan what you pick before finishing the pick list",
    },
    { action: "cancel", from: ["draft", "picking"], to: "cancelled", permission: "pick_list.cancel" },
  ],
});

// From an open sales order's goods lines, or a released delivery instruction's lines, each line defaulting to what is
// left to deliver; it takes nothing from the source (the delivery order made when it is finished does).
export const PICK_LIST_MADE_FROM = [
  {
    from: "sales_order",
    sourceStatuses: ["to_deliver_and_bill", "to_deliver"],
    defaultsTo: "qty_delivered",
    goodsOnly: true,
  },
  { from: "delivery_instruction", sourceStatuses: ["released", "picked"], defaultsTo: "qty_delivered" },
] as const;
