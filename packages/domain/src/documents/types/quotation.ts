import { defineDocumentType } from "../machine.ts";
import { type DocSnapshot, needsLines } from "./snapshot.ts";

// Issue 10 §2: draft → sent (submit) → won (an order was made from it) / lost (with a reason) / expired (past valid
// until) / cancelled.
export const QUOTATION = defineDocumentType({
  type: "quotation",
  title: "Quotation",
  plural: "Quotations",
  feature: "erp",
  owner: { column: "created_by", yours: "your own quotations" }, // issue 10 §3: a salesperson's own, by default
  statuses: {
    draft: { label: "Draft", color: "gray" },
    sent: { label: "Sent", color: "blue" },
    won: { label: "Won", color: "green" },
    lost: { label: "Lost", color: "red" },
    expired: { label: "Expired", color: "yellow" },
    cancelled: { label: "Cancelled", color: "gray" },
  },
  transitions: [
    {
      action: "submit",
      // It gives the number and marks the quotation sent; the e-mail with the PDF is the E-mail action. The button
      // says what it does (issue 21 §1: "Send" changed the status and sent nothing).
      label: "Mark as sent",
      from: ["draft"],
      to: "sent",
      permission: "quotation.submit",
      guard: needsLines("quotation", "sending"),
    },
    // document_convert runs it when a sales order is made from the quotation; a clerk may also mark it by hand.
    { action: "mark_won", from: ["sent"], to: "won", permission: "quotation.update" },
    { action: "mark_lost", from: ["sent", "expired"], to: "lost", permission: "quotation.update", needsReason: true },
    {
      action: "expire",
      from: ["sent"],
      to: "expired",
      permission: "quotation.update",
      guard: (q: DocSnapshot) => {
        const until = q.header.valid_until as string | null | undefined;
        if (!until) return "This quotation has no valid-until date, so it does not expire";
        return until < q.today ? null : `This quotation is valid until ${until}`;
      },
    },
    { action: "cancel", from: ["draft", "sent"], to: "cancelled", permission: "quotation.cancel" },
  ],
});
