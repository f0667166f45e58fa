import type { DocumentType } from "@workmetrics/domain/documents/machine";
import { EXPENSE_CLAIM } from "@workmetrics/domain/documents/types/expense-claim";
import type { DocSnapshot } from "@workmetrics/domain/documents/types/snapshot";
import { expenseClaimLineResource, expenseClaimResource } from "@workmetrics/domain/resources/expense";
import { registerDocumentType } from "../../platform/documents/registry.ts";
import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import { EXPENSE_CLAIM_EFFECTS } from "./expense.effects.ts";
import { prepareExpenseSave, priceExpense } from "./prepare.ts";
import { expenseReceiptRead, expenseReceiptUpload } from "./receipts.ts";

// Issue 24 "OCR and expense claims" (Premium's "shipping and expense"): employees' expense claims on the documents
// engine — saved, submitted, approved or rejected, reimbursed and cancelled through the document commands (their
// permissions, own-only rule, audit history, numbers EXP-YYYY-#####, PDF and CSV like every type) — and the receipt
// photos their lines carry.
export function registerExpense(): void {
  registerDocumentType({
    machine: EXPENSE_CLAIM as unknown as DocumentType<string, DocSnapshot>,
    header: expenseClaimResource,
    lines: expenseClaimLineResource,
    effects: EXPENSE_CLAIM_EFFECTS,
    prepareSave: prepareExpenseSave,
    price: priceExpense,
    notCopied: ["payment_reference"],
  });
  registerRpc(expenseReceiptUpload, expenseReceiptRead);
}
