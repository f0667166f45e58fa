import { z } from "zod";
import { DELIVERY_FAILURE_REASONS } from "../db/selling-schema.ts";
import { dbId, decimal, defineCommand, id, instant } from "./define.ts";

// Issue 22 "Driver" ({slug}.driver, not on Lite): the driver's day — the delivery orders assigned to them for a date
// as ordered stops — and what happens at a stop: arrived, then delivered with its proof or failed with a reason
// (back to dispatch). Dispatch assigns drivers and dates in bulk from the back office. Every command is idempotent
// through the Idempotency-Key the offline outbox replays with; the proof's signature and photos become files of
// the workspace (documents/delivery_order/<id>/proof/…). "Warehouse tracking" is the tier feature the logistics
// apps share (Pro and Premium; Lite refused, as its hosts are).

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Give a date as YYYY-MM-DD");
const deviceTime = z.iso.datetime({ offset: true, error: "Give the device's time as an ISO date and time" });

export const FAILURE_REASON_LABELS: Record<(typeof DELIVERY_FAILURE_REASONS)[number], string> = {
  nobody: "Nobody there",
  refused: "Refused by the customer",
  wrong_address: "Wrong address",
  damaged: "Goods damaged",
  other: "Other",
};

export const MAX_PROOF_PHOTOS = 3;
// A data URL of an image: the signature PNG, a photo the phone compressed to JPEG (≤1600 px).
const image = (what: string, limitBytes: number) =>
  z
    .string()
    .regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+$/, `Send the ${what} as a PNG or JPEG data URL`)
    .refine((v) => v.length <= Math.ceil((limitBytes * 4) / 3) + 40, {
      message: `The ${what} is larger than ${Math.round(limitBytes / 1024)} KB: compress it first`,
    });

export const tripStop = z.object({
  id: dbId,
  number: z.string().nullable(),
  status: z.string(),
  stop_seq: z.number().nullable(),
  planned_date: z.string().nullable(),
  company_name: z.string(),
  address: z.string().nullable(),
  contact_name: z.string().nullable(),
  phone: z.string().nullable(),
  notes: z.string().nullable(),
  arrived_at: instant.nullable(),
  received_by: z.string().nullable(),
  received_at: instant.nullable(),
  failure_reason: z.enum(DELIVERY_FAILURE_REASONS).nullable(),
  failure_note: z.string().nullable(),
  total: decimal.nullable(), // null unless the caller may read prices
  currency: z.string(),
  lines: z.array(
    z.object({
      description: z.string(),
      sku: z.string().nullable(),
      qty: decimal,
      unit: z.string().nullable(),
    }),
  ),
});
export type TripStop = z.output<typeof tripStop>;

export const deliveryTrip = defineCommand({
  name: "delivery_trip",
  args: z.object({ date: day }),
  result: z.object({ date: z.string(), shows_totals: z.boolean(), stops: z.array(tripStop) }),
  permission: null, // the caller's own stops: a driver's delivery orders (delivery_order.complete, own)
  does: "see a delivery trip",
  feature: "warehouse_tracking",
});

export const deliveryReorder = defineCommand({
  name: "delivery_reorder",
  args: z.object({
    date: day,
    ids: z.array(id).min(1, "Give the stops in their new order").max(500, "At most 500 stops in one trip"),
  }),
  result: z.object({ date: z.string(), ids: z.array(dbId) }),
  permission: null,
  does: "order a delivery trip",
  feature: "warehouse_tracking",
});

const stopResult = z.object({
  id: dbId,
  number: z.string().nullable(),
  status: z.string(),
  arrived_at: instant.nullable(),
  received_by: z.string().nullable(),
  received_at: instant.nullable(),
  failure_reason: z.enum(DELIVERY_FAILURE_REASONS).nullable(),
  pod_server_time: instant.nullable(),
  pod_signature: z.string().nullable(),
  pod_photos: z.array(z.string()).nullable(),
});
export type StopResult = z.output<typeof stopResult>;

export const deliveryArrive = defineCommand({
  name: "delivery_arrive",
  args: z.object({ id, device_time: deviceTime }),
  result: stopResult,
  permission: null, // the assigned driver, or delivery_order.complete on any (checked inside)
  does: "mark arrival at a stop",
  feature: "warehouse_tracking",
});

export const deliveryDeliver = defineCommand({
  name: "delivery_deliver",
  args: z.object({
    id,
    received_by: z
      .string()
      .trim()
      .min(1, "Give the name of the person who received the goods")
      .max(200, "The name is longer than 200 characters"),
    signature: image("signature", 512 * 1024),
    photos: z
      .array(image("photo", 1536 * 1024))
      .min(1, "Take at least one photo of the goods delivered")
      .max(MAX_PROOF_PHOTOS, `At most ${MAX_PROOF_PHOTOS} photos`),
    lat: z.number().min(-90, "Latitude is between -90 and 90").max(90, "Latitude is between -90 and 90").nullish(),
    lng: z
      .number()
      .min(-180, "Longitude is between -180 and 180")
      .max(180, "Longitude is between -180 and 180")
      .nullish(),
    accuracy: z.number().min(0, "Accuracy cannot be negative").nullish(),
    device_time: deviceTime,
  }),
  result: stopResult,
  permission: null,
  does: "deliver",
  feature: "warehouse_tracking",
});

export const deliveryFail = defineCommand({
  name: "delivery_fail",
  args: z
    .object({
      id,
      reason: z.enum(DELIVERY_FAILURE_REASONS, { error: "Choose why the delivery failed" }),
      note: z.string().trim().max(1000, "The note is longer than 1000 characters").nullish(),
      lat: z.number().min(-90).max(90).nullish(),
      lng: z.number().min(-180).max(180).nullish(),
      accuracy: z.number().min(0).nullish(),
      device_time: deviceTime,
    })
    .refine((v) => v.reason !== "other" || (v.note ?? "").length > 0, {
      message: "Say what went wrong",
      path: ["note"],
    }),
  result: stopResult,
  permission: null,
  does: "report a failed delivery",
  feature: "warehouse_tracking",
});

export const deliveryDispatch = defineCommand({
  name: "delivery_dispatch",
  args: z.object({
    ids: z.array(id).min(1, "Select the delivery orders to dispatch").max(500, "At most 500 delivery orders at once"),
    driver_id: z.uuid({ error: "Choose the driver" }),
    date: day,
  }),
  result: z.object({ dispatched: z.number(), driver_name: z.string(), date: z.string() }),
  permission: "delivery_order.update",
  does: "dispatch delivery orders",
  feature: "erp",
});

export const DRIVER_COMMANDS = [
  deliveryTrip,
  deliveryReorder,
  deliveryArrive,
  deliveryDeliver,
  deliveryFail,
  deliveryDispatch,
] as const;
