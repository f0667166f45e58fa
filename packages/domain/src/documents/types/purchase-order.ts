import { dec } from "../decimal.ts";
import { defineDocumentType } from "../machine.ts";
import { progress, type SourceLine } from "../quantities.ts";
import { type DocSnapshot, needsLines } from "./snapshot.ts";

// Issue 11: what we order from a supplier. A submitted order whose total in base currency is above the workspace's
// approval threshold waits for someone allowed to approve it (Odoo's "to approve"); then its status follows its
// lines' received and billed quantities (ERPNext's purchase order status_map): To Receive and Bill, To Receive,
// To Bill, Completed. Closed and Cancelled are set by actions and stay.
const OPEN = ["to_receive_and_bill", "to_receive", "to_bill"] as const;
export type PurchaseOrderProgress = (typeof OPEN)[number] | "completed";

export type PurchaseOrderLine = SourceLine & { receivable?: boolean }; // false: a service nobody receives

// Lines that are not received (services) count for billing only.
export function purchaseOrderStatus(lines: readonly PurchaseOrderLine[]): PurchaseOrderProgress {
  const received = progress(
    lines.filter((l) => l.receivable !== false),
    "qty_received",
  );
  const billed = progress(lines, "qty_billed");
  if (received === "fully") return billed === "fully" ? "completed" : "to_bill";
  return billed === "fully" ? "to_receive" : "to_receive_and_bill";
}

const orderLines = (doc: DocSnapshot): PurchaseOrderLine[] =>
  doc.lines.map((l) => ({
    id: String(l.id ?? ""),
    qty: String(l.qty),
    qty_received: (l.qty_received as string | null) ?? "0",
    qty_billed: (l.qty_billed as string | null) ?? "0",
    receivable: l.service_id == null,
  }));

// Above the threshold (document settings, in base currency) an order needs approval; no threshold: none does.
export function needsApproval(doc: DocSnapshot): boolean {
  const threshold = doc.settings?.po_approval_threshold;
  if (threshold == null || threshold === "") return false;
  return dec(String(doc.header.base_total ?? doc.header.total ?? "0")).greaterThan(dec(String(threshold)));
}

const nothingDone = (doc: DocSnapshot) =>
  doc.lines.some((l) => Number(l.qty_received ?? 0) !== 0 || Number(l.qty_billed ?? 0) !== 0)
    ? "Part of this purchase order is received or billed: cancel those documents first, or close the order"
    : null;

export const PURCHASE_ORDER = defineDocumentType({
  type: "purchase_order",
  title: "Purchase order",
  plural: "Purchase orders",
  feature: "erp",
  buying: true,
  statuses: {
    draft: { label: "Draft", color: "gray" },
    pending_approval: { label: "Pending approval", color: "yellow", adjective: "pending" },
    to_receive_and_bill: { label: "To Receive and Bill", color: "cyan", adjective: "open" },
    to_receive: { label: "To Receive", color: "cyan", adjective: "open" },
    to_bill: { label: "To Bill", color: "yellow", adjective: "open" },
    completed: { label: "Completed", color: "green" },
    closed: { label: "Closed", color: "purple" },
    cancelled: { label: "Cancelled", color: "red" },
  },
  transitions: [
    {
      action: "submit",
      from: ["draft"],
      to: "to_receive_and_bill", // or pending_approval above the threshold (settle)
      permission: "purchase_order.submit",
      guard: needsLines("purchase order", "submitting"),
    },
    { action: "approve", from: ["pending_approval"], to: "to_receive_and_bill", permission: "purchase_order.approve" },
    // Sent back to its buyer, who may change it and submit it again (it keeps its number).
    {
      action: "reject",
      label: "Send back",
      past: "sent back",
      from: ["pending_approval"],
      to: "draft",
      permission: "purchase_order.approve",
      does: "send this purchase order back",
      needsReason: true,
      reasonPrompt: "Give a reason to send it back",
    },
    { action: "close", from: [...OPEN], to: "closed", permission: "purchase_order.update" },
    { action: "reopen", from: ["closed"], to: "to_receive_and_bill", permission: "purchase_order.update" },
    {
      action: "cancel",
      from: ["draft", "pending_approval", ...OPEN],
      to: "cancelled",
      permission: "purchase_order.cancel",
      guard: nothingDone,
    },
  ],
  // The open statuses are decided by the figures, whichever action lands on one; a submit above the threshold
  // lands on Pending approval instead, and approving it (from Pending approval) on the figures.
  settle: (doc: DocSnapshot, to) => {
    if (!(OPEN as readonly string[]).includes(to) && to !== "completed") return to;
    if (doc.status === "draft" && needsApproval(doc)) return "pending_approval";
    return purchaseOrderStatus(orderLines(doc));
  },
});

export const PURCHASE_ORDER_OPEN = OPEN;
