import { INVOICE_RULE } from "@workmetrics/domain/documents/postings";
import { receivableEffects } from "./receivable.effects.ts";
import { settleReceivable } from "./receivable.ts";

// Issue 10 §2: what an invoice does besides its status. Submit fixes the due date (the customer's payment terms
// from the invoice date, unless one was given), sets `outstanding` to what is not yet allocated, settles the status
// from it and posts Dr 1100 Trade Debtors / Cr 4000 Sales / Cr 2200 GST Output in base currency; cancel, refused
// while a receipt pays it, posts the reversing entry. Both are every receivable's (receivable.effects.ts).

// Kept by its name for record_payment and the other effects: the one receivable settlement.
export const settleInvoice = settleReceivable;

export const INVOICE_EFFECTS = receivableEffects({ rule: INVOICE_RULE, paid: "invoice" });
