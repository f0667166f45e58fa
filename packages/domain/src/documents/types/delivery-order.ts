import { ROLE } from "../../roles.ts";
import { defineDocumentType } from "../machine.ts";
import { progress } from "../quantities.ts";
import { type DocSnapshot, needsLines } from "./snapshot.ts";

// Issue 10 §2: goods leaving a location for a customer. Submitting it takes stock out and posts the cost of the goods
// (the server's effects); its status then follows how much of it is billed: To Bill until every line is invoiced,
// then Completed (ERPNext's delivery note). Cancel reverses the moves and the entry.
// Handing the goods over is recorded beside the status, not as one (Odoo's delivery signature, ERPNext's delivery
// trip stop): `complete` writes who received them and when, whatever the billing; the assigned driver may run it
// on the delivery orders assigned to them (their own: `owner`), a role holding delivery_order.complete on any.
const OPEN = ["to_bill", "completed"] as const;

const received = (doc: DocSnapshot) => {
  const by = doc.header.received_by as string | null | undefined;
  if (!by) return null;
  const at = String(doc.header.received_at ?? "").slice(0, 10);
  return `This delivery order was received by ${by}${at ? ` on ${at}` : ""}`;
};

const billed = (doc: DocSnapshot) =>
  doc.lines.map((l) => ({ id: String(l.id ?? ""), qty: String(l.qty), qty_billed: String(l.qty_billed ?? "0") }));

export const DELIVERY_ORDER = defineDocumentType({
  type: "delivery_order",
  title: "Delivery order",
  plural: "Delivery orders",
  feature: "erp",
  owner: { column: "driver_id", yours: "delivery orders assigned to you" },
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
      action: "complete", // the API's name; the button says what it records (a Completed order is fully billed)
      label: "Mark delivered",
      from: [...OPEN],
      to: "to_bill", // settled by the billing below: the handover does not change it
      permission: "delivery_order.complete",
      own: true,
      guard: received,
      inputs: [
        {
          field: "received_by",
          label: "Received by",
          kind: "text",
          required: true,
          prompt: "Give the name of the person who received the goods",
        },
        { field: "received_at", label: "Received at", kind: "datetime" }, // default: now
      ],
    },
    // A draft's driver is a field of document_save; a submitted one's is changed by this, until it is handed over.
    {
      action: "assign_driver",
      label: "Assign driver",
      past: "given a driver",
      from: [...OPEN],
      to: "to_bill",
      permission: "delivery_order.update",
      guard: (doc: DocSnapshot) => (received(doc) ? `${received(doc)}; its driver cannot change` : null),
      inputs: [
        {
          field: "driver_id",
          label: "Driver",
          kind: "user",
          required: true,
          prompt: "Choose the driver to assign",
          role: ROLE.Driver, // issue 22: only drivers are assigned (the server refuses others)
        },
      ],
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
