import { dec, plain } from "../decimal.ts";
import { defineDocumentType } from "../machine.ts";
import { type DocSnapshot, needsLines } from "./snapshot.ts";

// Issue 11: stock moved between two of the workspace's locations (ERPNext's Material Transfer through a transit
// warehouse, Odoo's internal picking). Dispatch (submit) takes the goods out of the from-location into the
// workspace's transit location; Receive records what arrived at the other end, line by line: that goes into the
// to-location, and what did not arrive is the line's qty_short, written off from transit with the reason given —
// recorded, not lost. Receiving more than was sent is refused. Cancel, before receipt, puts the goods back where
// they came from. Warehouse tracking is a Pro feature.

const sameLocation = (doc: DocSnapshot) =>
  doc.header.from_location_id != null && String(doc.header.from_location_id) === String(doc.header.to_location_id)
    ? "A goods transfer moves stock between two different locations: choose another to-location"
    : null;

export const GOODS_TRANSFER_FORM = defineDocumentType({
  type: "goods_transfer_form",
  title: "Goods transfer form",
  plural: "Goods transfer forms",
  feature: "warehouse_tracking",
  valuedAtCost: true,
  statuses: {
    draft: { label: "Draft", color: "gray" },
    in_transit: { label: "In Transit", color: "yellow", adjective: "dispatched" },
    received: { label: "Received", color: "green" },
    cancelled: { label: "Cancelled", color: "red" },
  },
  transitions: [
    {
      action: "submit",
      label: "Dispatch",
      from: ["draft"],
      to: "in_transit",
      permission: "goods_transfer_form.submit",
      guard: (doc: DocSnapshot) =>
        needsLines("goods transfer form", "dispatching")(doc) ??
        sameLocation(doc) ??
        (doc.lines.some((l) => l.product_id == null) ? "Every line of a goods transfer moves a product" : null),
    },
    {
      action: "receive",
      from: ["in_transit"],
      to: "received",
      permission: "goods_transfer_form.receive",
      inputs: [
        // What arrived per line, at most what was sent; the rest is the shortfall.
        { field: "qty_received", label: "Received", kind: "line_qty" },
        { field: "shortfall_reason", label: "Reason for a shortfall", kind: "text" },
      ],
    },
    { action: "cancel", from: ["draft", "in_transit"], to: "cancelled", permission: "goods_transfer_form.cancel" },
  ],
});

// What a line did not bring: sent − received (never below 0: over-receipt is refused).
export const shortfall = (line: Readonly<Record<string, unknown>>): string =>
  plain(dec(String(line.qty)).minus(dec(String(line.qty_received ?? "0"))));
