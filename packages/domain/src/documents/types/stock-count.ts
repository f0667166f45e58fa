import { defineDocumentType } from "../machine.ts";
import { type DocSnapshot, needsLines } from "./snapshot.ts";

// Issue 22 "Warehouse" (DESIGN §2.3.2): a blind count of one location. The counter submits what they counted
// (stock_count_submit: the system quantity is read then, never shown to them), a manager reviews the differences
// and applies them: stock moves of each difference at the product's cost and the adjustment posted, Dr 5010 Stock
// Adjustment / Cr 1200 Stock for a loss (the reverse for a gain). Needs warehouse tracking (Pro).
export const STOCK_COUNT = defineDocumentType({
  type: "stock_count",
  title: "Stock count",
  plural: "Stock counts",
  feature: "warehouse_tracking",
  statuses: {
    draft: { label: "Draft", color: "gray" },
    submitted: { label: "To Review", color: "yellow", adjective: "submitted" },
    applied: { label: "Applied", color: "green" },
    cancelled: { label: "Cancelled", color: "red" },
  },
  transitions: [
    {
      action: "submit",
      from: ["draft"],
      to: "submitted",
      permission: "stock_count.submit",
      guard: needsLines("stock count", "submitting"),
    },
    {
      action: "apply",
      label: "Apply differences",
      past: "applied",
      does: "apply stock count differences",
      from: ["submitted"],
      to: "applied",
      permission: "stock_count.apply",
      // Asked in the apply dialog (so nothing moves on one click) and kept in the history: why the books change.
      needsReason: true,
      reasonPrompt: "Give a note for the adjustment (a cycle count, the year-end count…) to apply it",
      guard: (doc: DocSnapshot) =>
        doc.lines.some((l) => l.counted_qty == null) ? "Every line of a stock count needs its counted quantity" : null,
    },
    { action: "cancel", from: ["draft", "submitted"], to: "cancelled", permission: "stock_count.cancel" },
  ],
});
