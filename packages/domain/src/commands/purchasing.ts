import { z } from "zod";
import { defineCommand, id } from "./define.ts";
import { emailAddresses, emailSent, paymentRow } from "./documents.ts";

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

export const PURCHASING_COMMANDS = [supplierPaymentEmail, supplierPaymentCancel] as const;
