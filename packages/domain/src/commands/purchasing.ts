import { z } from "zod";
import { decimal, defineCommand, id } from "./define.ts";
import { emailAddresses, emailSent, paymentRow } from "./documents.ts";
import { dayArg, decimalArg } from "./inputs.ts";

// Issue 11's payables (modules/purchasing on the server): a payment to a supplier e-mailed as remittance advice,
// or cancelled. The permissions are checked inside through the one access rule.

export const supplierPaymentEmail = defineCommand({
  name: "supplier_payment_email",
  args: z.object({ id, to: emailAddresses, cc: emailAddresses, message: z.string().max(5000).nullish() }),
  result: emailSent,
  permission: null, // reading supplier payments
});

export const supplierPaymentCancel = defineCommand({
  name: "supplier_payment_cancel",
  args: z.object({ id, reason: z.string().trim().min(1, "Say why the payment is cancelled").max(2000) }),
  result: paymentRow,
  permission: null, // supplier_payment.cancel
});

// Issue 21 §1 "Buying documents": a buying line is priced as the product is picked, as the save would price it — a
// confirmed supplier discount, else the supplier's last price, else our cost — so the clerk sees the figures before
// saving. What a purchase costs is cost information: for members who read product costs.
export const purchasePrices = defineCommand({
  name: "purchase_prices",
  args: z.object({
    company_id: id.nullish(), // the supplier (none chosen yet: our cost)
    product_ids: z.array(id).min(1, "Name at least one product").max(100, "At most 100 products at a time"),
    qty: decimalArg("The quantity", 3, 15).optional(), // a discount may start at a quantity
    date: dayArg().optional(), // the document's date (a discount's validity)
  }),
  result: z.object({
    prices: z.array(
      z.object({
        product_id: z.number(),
        unit_price: decimal.nullable(),
        discount_percent: decimal,
        supplier_discount_form_id: z.number().nullable(),
        source: z.enum(["discount", "last_price", "cost"]),
      }),
    ),
  }),
  permission: "product_cost.read",
  does: "read purchase prices",
});

export const PURCHASING_COMMANDS = [supplierPaymentEmail, supplierPaymentCancel, purchasePrices] as const;
