import { dec, money } from "../decimal.ts";
import { defineDocumentType } from "../machine.ts";
import { TAX_RATES, type TaxCode } from "../totals.ts";
import { type DocSnapshot, needsLines } from "./snapshot.ts";

// Issue 24 "OCR and expense claims" (DESIGN §2.3.2, Premium's "shipping and expense"): what an employee spent for the
// company and asks back. Each line is one receipt (merchant, date, the amount paid with its GST, the tax code, the
// expense account, the receipt's photo). The claimant submits it; a manager approves it — posting Dr each expense
// account (net) and Dr 1300 GST Input Tax / Cr 2410 Employee Claims Payable — or rejects it with a reason (the
// claimant reopens it to fix it); finance reimburses it (Dr 2410 / Cr 1010 Bank). A staff member's claims are their
// own (owner created_by): they read and act on theirs only, managers and finance on everyone's.
export const EXPENSE_CLAIM = defineDocumentType({
  type: "expense_claim",
  title: "Expense claim",
  plural: "Expense claims",
  feature: "shipping_expense",
  owner: { column: "created_by", yours: "your own expense claims" },
  statuses: {
    draft: { label: "Draft", color: "gray" },
    submitted: { label: "To Approve", color: "yellow", adjective: "submitted" },
    approved: { label: "To Reimburse", color: "blue", adjective: "approved" },
    paid: { label: "Reimbursed", color: "green", adjective: "reimbursed" },
    rejected: { label: "Rejected", color: "red" },
    cancelled: { label: "Cancelled", color: "gray" },
  },
  transitions: [
    {
      action: "submit",
      from: ["draft"],
      to: "submitted",
      permission: "expense_claim.submit",
      guard: (doc: DocSnapshot) => needsLines("expense claim", "submitting")(doc) ?? lineProblem(doc),
    },
    {
      action: "approve",
      from: ["submitted"],
      to: "approved",
      permission: "expense_claim.approve",
      does: "approve expense claims",
    },
    {
      action: "reject",
      from: ["submitted"],
      to: "rejected",
      permission: "expense_claim.reject",
      does: "reject expense claims",
      needsReason: true,
      reasonPrompt: "Give a reason to reject it (the claimant reads it)",
    },
    // A rejected claim goes back to its claimant's draft to be corrected and submitted again.
    {
      action: "reopen",
      label: "Reopen to correct",
      past: "reopened",
      from: ["rejected"],
      to: "draft",
      permission: "expense_claim.update",
      does: "reopen expense claims",
    },
    {
      action: "reimburse",
      label: "Reimburse",
      past: "reimbursed",
      from: ["approved"],
      to: "paid",
      permission: "expense_claim.pay",
      does: "reimburse expense claims",
      inputs: [{ field: "payment_reference", label: "Payment reference", kind: "text" }],
    },
    {
      action: "cancel",
      from: ["draft", "submitted", "rejected"],
      to: "cancelled",
      permission: "expense_claim.cancel",
    },
  ],
});

// Every receipt needs its merchant, its date and an amount more than 0 before a manager sees it.
function lineProblem(doc: DocSnapshot): string | null {
  for (const [i, l] of doc.lines.entries()) {
    const n = Number(l.line_no ?? i + 1);
    if (!String(l.merchant ?? "").trim()) return `Line ${n}: give the merchant of the receipt`;
    if (!l.expense_date) return `Line ${n}: give the date on the receipt`;
    if (!(Number(l.amount ?? 0) > 0)) return `Line ${n}: the amount must be more than 0`;
    if (!String(l.account_code ?? "").trim()) return `Line ${n}: choose the expense account`;
  }
  return null;
}

// The expense accounts a claim form offers (staff read no chart of accounts): the chart's accounts added for claims
// (postings.ts). The server takes any active expense account of the workspace, so finance may use their own.
export const EXPENSE_CLAIM_ACCOUNTS = [
  { code: "6400", name: "Travel & Transport" },
  { code: "6410", name: "Meals & Entertainment" },
  { code: "6420", name: "Office Supplies" },
  { code: "6430", name: "Postage & Courier" },
  { code: "6490", name: "Sundry Expenses" },
] as const;
export const EXPENSE_ACCOUNT_DEFAULT = "6490";

// Where an approved claim is owed (Cr) and what reimbursing it pays from.
export const EMPLOYEE_CLAIMS_PAYABLE = "2410";

// The GST inside an amount paid (a receipt's total) at its tax code's rate: amount × rate / (1 + rate), to the cent.
// The server prices a claim with it and the claim form shows the same figures as the person types.
export function gstInside(amount: string, code: TaxCode): string {
  const rate = dec(TAX_RATES[code] ?? "0");
  return money(dec(amount).times(rate).dividedBy(rate.plus(1)));
}
