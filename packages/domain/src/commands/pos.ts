import { z } from "zod";
import { POS_FAVOURITES_MAX, POS_PAYMENT_METHODS } from "../db/pos-schema.ts";
import { dbId, decimal, defineCommand, id, instant } from "./define.ts";
import { decimalArg, qtyArg } from "./inputs.ts";

// Issue 22 "Point of sale" (modules/pos on the server; the POS feature, Premium; DESIGN §2.3.2 "POS"). The counter's
// commands, each one transaction and idempotent under an Idempotency-Key (the app queues them offline with the key
// made when the cashier tapped). Prices are GST-inclusive. A POS staff member discounts a line up to
// POS_STAFF_DISCOUNT_LIMIT percent; beyond it needs pos_discount.override (owners and admins).

export const POS_STAFF_DISCOUNT_LIMIT = 10;
export const POS_DISCOUNT_OVERRIDE = "pos_discount.override";
// A session is its cashier's drawer: only they sell and refund into it; closing another's left open is a
// supervisor's (owners and admins; POS staff's "pos_session.*" does not reach it).
export const POS_SESSION_CLOSE_OTHERS = "pos_supervisor.close_session";

const money = (what: string) => decimalArg(what, 2, 14);

const method = z.enum(POS_PAYMENT_METHODS, { error: "Pay by cash, card, paynow or voucher" });

export const posSessionOpenArgs = z.object({
  location_id: id,
  opening_float: money("The opening float"),
});

export const posSaleLineArgs = z.object({
  product_id: id,
  qty: qtyArg("The quantity"),
  unit_price_incl_gst: decimalArg("The price", 4, 16),
  discount_pct: decimalArg("The discount", 2, 5).optional(),
});

export const posPaymentArgs = z.object({
  method,
  amount: money("The payment"), // for cash: what was tendered; the change is worked out
  reference: z.string().trim().max(120).nullish(),
});

export const posSaleArgs = z.object({
  // Absent: the cashier's open session (a sale rung up offline right after an open that is still queued).
  session_id: id.nullish(),
  customer_id: id.nullish(),
  lines: z.array(posSaleLineArgs).min(1, "Add at least one product to the sale").max(200),
  payments: z.array(posPaymentArgs).min(1, "Take a payment for the sale").max(10),
});

export const posRefundArgs = z.object({
  order_id: id,
  lines: z
    .array(z.object({ source_line_id: id, qty: qtyArg("The quantity to refund") }))
    .min(1, "Choose at least one line to refund")
    .max(200),
  method,
  session_id: id.nullish(), // the session the money leaves from; the cashier's open session by default
});

export const posSessionCloseArgs = z.object({ session_id: id, counted_cash: money("The counted cash") });

export const posZReportArgs = z.object({ session_id: id });

export const posSessionView = z.object({
  id: dbId,
  location_id: dbId,
  location_name: z.string(),
  status: z.enum(["open", "closed"]),
  opening_float: decimal,
  expected_cash: decimal.nullable(),
  counted_cash: decimal.nullable(),
  difference: decimal.nullable(),
  opened_at: instant,
  closed_at: instant.nullable(),
  opened_by_name: z.string().nullable(),
});
export type PosSessionView = z.output<typeof posSessionView>;

export const posOrderLineView = z.object({
  id: dbId,
  line_no: z.number(),
  product_id: dbId,
  sku: z.string().nullable(),
  description: z.string(),
  qty: decimal,
  unit_price: decimal,
  discount_percent: decimal,
  discount_amount: decimal,
  line_total: decimal,
  tax_code: z.string(),
  source_line_id: dbId.nullable(),
  qty_refunded: decimal,
});

export const posPaymentView = z.object({
  method,
  amount: decimal,
  tendered: decimal,
  change_given: decimal,
  reference: z.string().nullable(),
});

export const posOrderView = z.object({
  id: dbId,
  number: z.string(),
  kind: z.enum(["sale", "refund"]),
  status: z.string(),
  doc_date: z.string(),
  created_at: instant,
  session_id: dbId,
  location_name: z.string(),
  company_id: dbId.nullable(),
  customer_name: z.string().nullable(),
  refund_of: dbId.nullable(),
  refund_of_number: z.string().nullable(),
  subtotal: decimal,
  discount_total: decimal,
  net_total: decimal,
  tax_total: decimal,
  total: decimal,
  change_given: decimal,
  receipt_token: z.string(),
  cashier_name: z.string().nullable(),
  workspace_name: z.string(),
  lines: z.array(posOrderLineView),
  payments: z.array(posPaymentView),
});
export type PosOrderView = z.output<typeof posOrderView>;

const byMethod = z.object({ method, sales: decimal, refunds: decimal, net: decimal, count: z.number() });

export const posZReportView = z.object({
  session: posSessionView,
  workspace_name: z.string(),
  sales_count: z.number(),
  refunds_count: z.number(),
  gross_sales: decimal, // incl. GST, before discounts
  discounts: decimal,
  net_sales: decimal, // incl. GST, after discounts
  refunds: decimal, // incl. GST, as a positive amount
  tax_sales: decimal,
  tax_refunds: decimal,
  tax_net: decimal,
  change_given: decimal,
  cash_sales: decimal,
  cash_refunds: decimal,
  expected_cash: decimal, // float + cash sales − cash refunds − change (to date while open)
  by_method: z.array(byMethod),
});
export type PosZReport = z.output<typeof posZReportView>;

export const posSessionOpen = defineCommand({
  name: "pos_session_open",
  args: posSessionOpenArgs,
  result: posSessionView,
  permission: "pos_session.create",
  does: "open a POS session",
  feature: "pos",
});

export const posSale = defineCommand({
  name: "pos_sale",
  args: posSaleArgs,
  result: posOrderView,
  permission: "pos_order.create",
  does: "ring up a sale",
  feature: "pos",
});

export const posRefund = defineCommand({
  name: "pos_refund",
  args: posRefundArgs,
  result: posOrderView,
  permission: "pos_order.create",
  does: "refund a sale",
  feature: "pos",
});

export const posSessionClose = defineCommand({
  name: "pos_session_close",
  args: posSessionCloseArgs,
  result: posZReportView,
  permission: "pos_session.update",
  does: "close a POS session",
  feature: "pos",
});

export const posZReport = defineCommand({
  name: "pos_z_report",
  args: posZReportArgs,
  result: posZReportView,
  permission: "pos_session.read",
  does: "read a Z report",
  feature: "pos",
});

export const posReceiptEmail = defineCommand({
  name: "pos_receipt_email",
  args: z.object({ order_id: id, to: z.string().trim().email("Give an e-mail address like name@example.com") }),
  result: z.object({ queued: z.boolean(), to: z.string() }),
  permission: "pos_order.create",
  does: "e-mail a receipt",
  feature: "pos",
});

// The favourites grid, replaced whole in its new order (the first id is the first tile); an empty list clears it.
export const POS_FAVOURITE_UPDATE = "pos_favourite.update";
export { POS_FAVOURITES_MAX };

export const posFavouritesSet = defineCommand({
  name: "pos_favourites_set",
  args: z.object({
    product_ids: z
      .array(id)
      .max(POS_FAVOURITES_MAX, `Choose at most ${POS_FAVOURITES_MAX} favourites`)
      .refine((ids) => new Set(ids).size === ids.length, "A product is in the favourites twice"),
  }),
  result: z.object({ product_ids: z.array(dbId) }),
  permission: POS_FAVOURITE_UPDATE,
  does: "choose the POS favourites",
  feature: "pos",
});

export const POS_COMMANDS = [
  posSessionOpen,
  posSale,
  posRefund,
  posSessionClose,
  posZReport,
  posReceiptEmail,
  posFavouritesSet,
] as const;
