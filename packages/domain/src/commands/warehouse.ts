import { z } from "zod";
import { dbId, decimal, defineCommand, id } from "./define.ts";
import { documentRow } from "./documents.ts";
import { qtyArg } from "./inputs.ts";

// Issue 22 "Warehouse" (modules/warehouse on the server, the warehouse app on {slug}.warehouse): receiving against
// purchase orders, pick lists, moves between locations and blind stock counts. Each write makes the same documents
// the back office makes, through the documents engine, in one transaction; each honours Idempotency-Key (the app's
// offline outbox replays with the key made when the storekeeper acted). Warehouse tracking (Pro): not on Lite.

const qty = qtyArg();
const PHOTO_BYTES = 2 * 1024 * 1024;
// The supplier's delivery order photographed at the door: a data URL the phone compressed (≤1600 px JPEG).
const photo = z
  .string()
  .regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+$/, "Send the photo as a PNG or JPEG data URL")
  .refine((v) => v.length <= Math.ceil((PHOTO_BYTES * 4) / 3) + 40, {
    message: "The photo is larger than 2048 KB: compress it first",
  });
const text = (max: number) => z.string().trim().max(max);

// ---- receive -----------------------------------------------------------------------------------------------------

export const receiptDueLine = z.object({
  line_id: z.number(),
  line_no: z.number(),
  product_id: z.number().nullable(),
  sku: z.string().nullable(),
  description: z.string(),
  unit: z.string().nullable(),
  ordered: decimal,
  received: decimal,
  remaining: decimal,
});
export const receiptDue = z.object({
  id: z.number(),
  number: z.string().nullable(),
  status: z.string(),
  supplier_id: z.number(),
  supplier: z.string(),
  expected_date: z.string().nullable(),
  overdue: z.boolean(), // expected before today and still not all here
  location_id: z.number().nullable(),
  location: z.string().nullable(),
  lines: z.array(receiptDueLine),
});
export type ReceiptDue = z.output<typeof receiptDue>;

// The open purchase orders with goods left to receive: today's and later ones by expected date, the late ones first
// (flagged overdue), those without a date last.
export const warehouseReceiptsDue = defineCommand({
  name: "warehouse_receipts_due",
  args: z.object({ location_id: id.optional(), search: text(100).optional() }),
  result: z.object({ orders: z.array(receiptDue) }),
  permission: "purchase_order.read",
  does: "see the purchase orders to receive",
  feature: "warehouse_tracking",
});

// A receipt of some of a purchase order's lines: the supplier delivery order made from the order and submitted
// (stock in, Dr 1200 / Cr 2100), as the back office's "Receive" does. More than is left on a line needs
// `over_reason` (kept on the receipt's notes); the workspace's over-receipt allowance still applies. `photo`: the
// supplier's delivery order, kept as a file of the receipt (its files panel, the receipt files report).
export const warehouseReceive = defineCommand({
  name: "warehouse_receive",
  args: z.object({
    purchase_order_id: id,
    lines: z
      .array(z.object({ line_id: id, qty }))
      .min(1, "Enter the quantity received of at least one line")
      .max(500),
    over_reason: text(500).nullish(),
    supplier_do_number: text(60).nullish(),
    location_id: id.nullish(),
    photo: photo.nullish(),
  }),
  result: documentRow,
  permission: "supplier_delivery_order.create",
  does: "receive goods",
  feature: "warehouse_tracking",
});

// ---- pick ----------------------------------------------------------------------------------------------------------

// A pick list of what is left to deliver on a sales order or a released delivery instruction, numbered at once
// (Picking), its lines in location and bin order.
export const pickListMake = defineCommand({
  name: "pick_list_make",
  args: z.object({
    source_type: z.enum(["sales_order", "delivery_instruction"], {
      error: "Make a pick list from a sales order or a delivery instruction",
    }),
    source_id: id,
    location_id: id.nullish(),
  }),
  result: documentRow,
  permission: "pick_list.create",
  does: "make pick lists",
  feature: "warehouse_tracking",
});

// What is picked on one line so far (the total, not an increment, so a replayed scan cannot count twice).
export const pickListPick = defineCommand({
  name: "pick_list_pick",
  args: z.object({ id, line_id: id, qty_picked: qty }),
  result: documentRow,
  permission: "pick_list.update",
  does: "pick",
  feature: "warehouse_tracking",
});

// Done: the delivery order draft made from the pick list's source with the quantities picked.
export const pickListFinish = defineCommand({
  name: "pick_list_finish",
  args: z.object({ id }),
  result: documentRow,
  permission: "pick_list.submit",
  does: "finish pick lists",
  feature: "warehouse_tracking",
});

// ---- move ----------------------------------------------------------------------------------------------------------

// One product from one location to another now: a goods transfer form dispatched and received in full at once.
export const warehouseMove = defineCommand({
  name: "warehouse_move",
  args: z.object({
    product_id: id,
    from_location_id: id,
    to_location_id: id,
    qty,
    notes: text(500).nullish(),
  }),
  result: documentRow,
  permission: "goods_transfer_form.submit",
  does: "move stock",
  feature: "warehouse_tracking",
});

// ---- count ---------------------------------------------------------------------------------------------------------

// What to count at a location (products with stock moves or a bin there), without any quantity: the count is blind.
export const stockCountSheet = defineCommand({
  name: "stock_count_sheet",
  args: z.object({ location_id: id }),
  result: z.object({
    location_id: z.number(),
    products: z.array(
      z.object({
        product_id: z.number(),
        name: z.string(),
        sku: z.string().nullable(),
        unit: z.string().nullable(),
        bin: z.string().nullable(),
      }),
    ),
  }),
  permission: "stock_count.create",
  does: "count stock",
  feature: "warehouse_tracking",
});

// The counter's counts of one location, submitted for review: the system quantity is read now and never answered.
export const stockCountSubmit = defineCommand({
  name: "stock_count_submit",
  args: z.object({
    location_id: id,
    lines: z
      .array(z.object({ product_id: id, counted_qty: qty }))
      .min(1, "Count at least one product")
      .max(1000),
    notes: text(1000).nullish(),
  }),
  result: z.object({
    id: dbId,
    number: z.string().nullable(),
    status: z.string(),
    location_id: z.number(),
    lines: z.number(), // how many products were counted
  }),
  permission: "stock_count.submit",
  does: "submit stock counts",
  feature: "warehouse_tracking",
});

export const WAREHOUSE_COMMANDS = [
  warehouseReceiptsDue,
  warehouseReceive,
  pickListMake,
  pickListPick,
  pickListFinish,
  warehouseMove,
  stockCountSheet,
  stockCountSubmit,
] as const;
