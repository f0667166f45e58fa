import { sql } from "drizzle-orm";
import { bigint, check, date, numeric, pgTable, text } from "drizzle-orm/pg-core";
import {
  documentHeaderColumns,
  documentHeaderKeys,
  documentLineColumns,
  documentLineKeys,
} from "./document-columns.ts";

// Issue 24 "OCR and expense claims" (DESIGN §2.3.2): an employee's expense claim on the documents engine (written only
// by the document commands; /rest/v1 reads it, lines embedded as select=*,lines:expense_claim_line(*)). The claimant
// is created_by; a claim has no customer or supplier. A line is one receipt: `amount` is what was paid, GST included;
// the server derives the line's GST and net from it and the tax code (unit_price = amount, qty 1).

const money = (name: string) => numeric(name, { precision: 14, scale: 2 });

export const expenseClaim = pgTable(
  "expense_claim",
  {
    ...documentHeaderColumns,
    companyId: bigint("company_id", { mode: "number" }), // none: the payee is the claimant
    paymentReference: text("payment_reference"), // the transfer that reimbursed it
  },
  (t) => [...documentHeaderKeys("expense_claim", t)],
).enableRLS();

export const expenseClaimLine = pgTable(
  "expense_claim_line",
  {
    ...documentLineColumns,
    merchant: text("merchant"),
    expenseDate: date("expense_date"),
    amount: money("amount").notNull().default(sql`0`),
    gstAmount: money("gst_amount").notNull().default(sql`0`),
    accountCode: text("account_code"),
    receiptPath: text("receipt_path"), // the photo in the workspace's files bucket
    expenseClaimId: bigint("expense_claim_id", { mode: "number" }).notNull(),
  },
  (t) => [
    ...documentLineKeys("expense_claim_line", t, { column: t.expenseClaimId, table: expenseClaim }),
    check("expense_claim_line_amount", sql`${t.amount} >= 0`),
  ],
).enableRLS();
