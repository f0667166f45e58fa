import { expenseClaim, expenseClaimLine } from "../db/expense-schema.ts";
import { EXPENSE_CLAIM } from "../documents/types/expense-claim.ts";
import { CATALOG } from "./catalog.ts";
import { documentHeaderFields, documentLineFields, documentResources } from "./documents.ts";
import { f } from "./fields.ts";
import type { ResourceDef } from "./types.ts";

// Issue 24: expense claims, read through /rest/v1 (written by the document commands), page at
// /dashboard/expense-claims. A claim names no company: its payee is the claimant (created_by, listed as "Claimant").
// A line is a receipt; its GST and net are the server's, from the amount paid and the tax code.

const ro = { readOnly: true };

// Always SGD at rate 1 (what the claimant paid here), no contact, terms or discount.
const HIDDEN = new Set(["contact_id", "currency", "rate", "terms", "discount_percent", "discount_amount"]);

const header = documentHeaderFields(EXPENSE_CLAIM.statusNames, [
  f.text("payment_reference", "Payment reference", { ...ro, maxLength: 100 }),
]).map((x) =>
  x.name === "company_id"
    ? { ...x, required: false, readOnly: true, list: false, form: false }
    : x.name === "created_by"
      ? { ...x, label: "Claimant", list: true, width: 160 }
      : HIDDEN.has(x.name)
        ? { ...x, readOnly: true, form: false }
        : x,
);

export const [expenseClaimResource, expenseClaimLineResource] = documentResources(
  "expense_claim",
  { entry: CATALOG.expense_claim, table: expenseClaim, fields: header },
  {
    entry: CATALOG.expense_claim_line,
    table: expenseClaimLine,
    fields: documentLineFields("expense_claim", [
      f.text("merchant", "Merchant", { list: true, maxLength: 200 }),
      f.date("expense_date", "Date on receipt", { list: true }),
      f.money("amount", "Amount (GST incl.)", { list: true, min: 0 }),
      f.money("gst_amount", "GST", { ...ro, list: true }),
      f.code("account_code", "Expense account", { list: true }),
      f.text("receipt_path", "Receipt", { maxLength: 500 }),
    ]),
  },
  "created_by",
);

export const EXPENSE_RESOURCES: readonly ResourceDef[] = [expenseClaimResource, expenseClaimLineResource];
