import { z } from "zod";
import { defineCommand } from "./define.ts";

// Issue 24 "OCR and expense claims": a receipt photographed on the phone (compressed there to a JPEG ≤1600 px) kept in
// the workspace's files bucket under expense_claims/receipts/, for an expense claim line's receipt_path. Staff hold
// no file permission of their own (a driver, the POS): keeping a receipt needs expense_claim.create, and the claim
// is what reads it. Idempotent through the Idempotency-Key like every command.

export const MAX_RECEIPT_BYTES = 3 * 1024 * 1024;

export const receiptImage = z
  .string()
  .regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+$/, "Send the receipt as a PNG or JPEG data URL")
  .refine((v) => v.length <= Math.ceil((MAX_RECEIPT_BYTES * 4) / 3) + 40, {
    message: `The receipt photo is larger than ${MAX_RECEIPT_BYTES / 1024 / 1024} MB: compress it first`,
  });

export const expenseReceiptUpload = defineCommand({
  name: "expense_receipt_upload",
  args: z.object({ image: receiptImage }),
  result: z.object({ bucket: z.string(), path: z.string(), size: z.number() }),
  permission: "expense_claim.create",
  does: "keep expense receipts",
  feature: "shipping_expense",
});

// A line's receipt photo, for whoever may read its claim (the claimant, a manager approving), as a data URL.
export const expenseReceiptRead = defineCommand({
  name: "expense_receipt_read",
  args: z.object({ line_id: z.number().int().positive() }),
  result: z.object({ mime: z.string(), data_url: z.string() }),
  permission: null,
  does: "open expense receipts",
  feature: "shipping_expense",
});

export const EXPENSE_COMMANDS = [expenseReceiptUpload, expenseReceiptRead] as const;
