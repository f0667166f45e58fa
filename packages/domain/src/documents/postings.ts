import type Decimal from "decimal.js";
import { Dec, DocumentError, dec, money, sum } from "./decimal.ts";

// Ledger postings as data expanded by one pure builder (STYLE "Posting rules as data": Bigcapital's InvoiceGL
// without its floats and its missing debit = credit check). The server writes what buildJournal returns, in the
// same transaction as the status change, and the database refuses an unbalanced entry as well (issue 10 §2).

// ---- the chart of accounts (DOCUMENTS.md §2), seeded per workspace and editable by finance roles ---------------

export type AccountType =
  | "cash"
  | "bank"
  | "receivable"
  | "asset"
  | "stock"
  | "tax"
  | "payable"
  | "liability"
  | "equity"
  | "income"
  | "cogs"
  | "expense";
// Where an account lands in the balance sheet or P&L; contra accounts sit under their root with the other sign.
export type AccountRoot = "asset" | "liability" | "equity" | "income" | "expense";
export type Account = { code: string; name: string; type: AccountType; root: AccountRoot; contra?: boolean };

// §2 lists "6000–6300" for five expenses; Rounding is 6300 (issue 10), FX sits at 6250 between Bad Debts and it.
export const CHART_OF_ACCOUNTS: readonly Account[] = [
  { code: "1000", name: "Cash", type: "cash", root: "asset" },
  { code: "1010", name: "Bank SGD", type: "bank", root: "asset" },
  { code: "1020", name: "Card Clearing", type: "asset", root: "asset" }, // issue 22: POS card takings until settled
  { code: "1030", name: "PayNow Clearing", type: "asset", root: "asset" },
  { code: "1100", name: "Trade Debtors", type: "receivable", root: "asset" },
  { code: "1110", name: "Retention Receivable", type: "receivable", root: "asset" },
  { code: "1120", name: "Contract Asset (unbilled)", type: "asset", root: "asset" },
  { code: "1200", name: "Stock In Hand", type: "stock", root: "asset" },
  { code: "1210", name: "Stock In Transit", type: "stock", root: "asset" },
  { code: "1220", name: "Goods on Loan", type: "stock", root: "asset" },
  { code: "1300", name: "GST Input Tax", type: "tax", root: "asset" },
  { code: "1400", name: "Supplier Advances", type: "asset", root: "asset" },
  { code: "2000", name: "Trade Creditors", type: "payable", root: "liability" },
  { code: "2010", name: "Retention Payable", type: "payable", root: "liability" },
  { code: "2100", name: "Stock Received But Not Billed", type: "liability", root: "liability" },
  { code: "2200", name: "GST Output Tax", type: "tax", root: "liability" },
  { code: "2210", name: "GST Payable (net)", type: "liability", root: "liability" },
  { code: "2300", name: "Customer Deposits", type: "liability", root: "liability" },
  { code: "2310", name: "Vouchers Outstanding", type: "liability", root: "liability" }, // redeemed at the POS
  { code: "2400", name: "Commission Payable", type: "liability", root: "liability" },
  { code: "2410", name: "Employee Claims Payable", type: "liability", root: "liability" }, // issue 24: expense claims
  { code: "3000", name: "Share Capital", type: "equity", root: "equity" },
  { code: "3100", name: "Retained Earnings", type: "equity", root: "equity" },
  { code: "4000", name: "Sales Goods", type: "income", root: "income" },
  { code: "4010", name: "Contract/Service Revenue", type: "income", root: "income" },
  { code: "4100", name: "Sales Returns", type: "income", root: "income", contra: true },
  { code: "5000", name: "Cost of Goods Sold", type: "cogs", root: "expense" },
  { code: "5010", name: "Stock Adjustment", type: "expense", root: "expense" },
  { code: "5020", name: "Price Variance", type: "expense", root: "expense" },
  { code: "5100", name: "Supplier Rebates & Discounts", type: "cogs", root: "expense", contra: true },
  { code: "6000", name: "Commission", type: "expense", root: "expense" },
  { code: "6100", name: "Bank Charges", type: "expense", root: "expense" },
  { code: "6200", name: "Bad Debts Written Off", type: "expense", root: "expense" },
  { code: "6250", name: "Foreign Exchange Gain/Loss", type: "expense", root: "expense" },
  { code: "6300", name: "Rounding", type: "expense", root: "expense" },
  { code: "6310", name: "Cash Over/Short", type: "expense", root: "expense" }, // a POS session's counted difference
  // Issue 24: what staff claim back (an expense claim line's account).
  { code: "6400", name: "Travel & Transport", type: "expense", root: "expense" },
  { code: "6410", name: "Meals & Entertainment", type: "expense", root: "expense" },
  { code: "6420", name: "Office Supplies", type: "expense", root: "expense" },
  { code: "6430", name: "Postage & Courier", type: "expense", root: "expense" },
  { code: "6490", name: "Sundry Expenses", type: "expense", root: "expense" },
];

export const ROUNDING_ACCOUNT = "6300";

// ---- rules -----------------------------------------------------------------------------------------------------

// One leg: which side, which account, which of the document's figures. `role` names the account so one document can
// post elsewhere (a cash receipt debits 1000, not 1010) through `doc.accounts[role]`.
export type PostingLeg = { side: "debit" | "credit"; account: string; role: string; amount: string };
export type PostingRule = { name: string; memo: string; legs: readonly PostingLeg[] };

// The figures a rule reads (strings of the totals function, in base currency: see toBaseTotals in totals.ts),
// the number for the memo, and any account a role should use instead of the rule's.
export type PostingDoc = {
  readonly [figure: string]: unknown;
  number?: string | null;
  accounts?: Readonly<Record<string, string>>;
};

export const leg = (side: PostingLeg["side"], account: string, role: string, amount: string): PostingLeg => ({
  side,
  account,
  role,
  amount,
});

// Dr Trade debtors total / Cr Sales the amount after discounts / Cr GST output tax (issue 10 §2).
export const INVOICE_RULE: PostingRule = {
  name: "invoice",
  memo: "Invoice",
  legs: [
    leg("debit", "1100", "receivable", "total"),
    leg("credit", "4000", "income", "net_total"),
    leg("credit", "2200", "output_tax", "tax_total"),
  ],
};

// An extra charge on an earlier invoice posts like an invoice.
export const DEBIT_NOTE_RULE: PostingRule = { ...INVOICE_RULE, name: "debit_note", memo: "Debit note" };

// The reverse of an invoice, through the Sales Returns contra account so gross sales stay visible. A credit
// note's figures are positive: the amount credited.
export const CREDIT_NOTE_RULE: PostingRule = {
  name: "credit_note",
  memo: "Credit note",
  legs: [
    leg("debit", "4100", "returns", "net_total"),
    leg("debit", "2200", "output_tax", "tax_total"),
    leg("credit", "1100", "receivable", "total"),
  ],
};

// The whole amount leaves Trade debtors, allocated or not: an overpayment stays there as the customer's credit
// balance (ERPNext's unallocated amount) until it is allocated to a later invoice.
export const RECEIPT_RULE: PostingRule = {
  name: "receipt",
  memo: "Receipt",
  legs: [leg("debit", "1010", "bank", "amount"), leg("credit", "1100", "receivable", "amount")],
};

// A payment to a supplier (issue 11): the receipt mirrored — the whole amount leaves the bank and lowers what is owed;
// what it does not allocate stays in 2000 as the supplier's credit (a debit balance on their account).
export const SUPPLIER_PAYMENT_RULE: PostingRule = {
  name: "supplier_payment",
  memo: "Supplier payment",
  legs: [leg("debit", "2000", "payable", "amount"), leg("credit", "1010", "bank", "amount")],
};

// Perpetual stock: the cost of what left, at valuation (DOCUMENTS.md §1 "Delivery order").
export const DELIVERY_COGS_RULE: PostingRule = {
  name: "delivery_order",
  memo: "Delivery order",
  legs: [leg("debit", "5000", "cogs", "cost_total"), leg("credit", "1200", "stock", "cost_total")],
};

// Goods a customer returns come back into stock at the cost they left at.
export const GOODS_RETURN_RULE: PostingRule = {
  name: "goods_return_note",
  memo: "Goods return note",
  legs: [leg("debit", "1200", "stock", "cost_total"), leg("credit", "5000", "cogs", "cost_total")],
};

// Issue 11: stock on its way between two locations sits in 1210 Stock In Transit (so the transit location's value
// and the account agree); on receipt what arrived goes back to 1200 and a shortfall is written off to 5010.
export const TRANSFER_DISPATCH_RULE: PostingRule = {
  name: "goods_transfer_form",
  memo: "Goods transfer",
  legs: [leg("debit", "1210", "transit", "cost_total"), leg("credit", "1200", "stock", "cost_total")],
};

export const TRANSFER_RECEIPT_RULE: PostingRule = {
  name: "goods_transfer_receipt",
  memo: "Goods transfer received",
  legs: [
    leg("debit", "1200", "stock", "received_total"),
    leg("debit", "5010", "shortfall", "short_total"),
    leg("credit", "1210", "transit", "cost_total"),
  ],
};

// Goods lent to a customer stay an asset, in 1220 Goods on Loan, until they come back or are sold from the loan.
export const LOAN_OUT_RULE: PostingRule = {
  name: "loan_form",
  memo: "Loan",
  legs: [leg("debit", "1220", "on_loan", "cost_total"), leg("credit", "1200", "stock", "cost_total")],
};

export const LOAN_RETURN_RULE: PostingRule = {
  name: "loan_return",
  memo: "Loan returned",
  legs: [leg("debit", "1200", "stock", "cost_total"), leg("credit", "1220", "on_loan", "cost_total")],
};

// Goods received from a supplier come into stock at the order's price, owed once the invoice arrives (DOCUMENTS.md
// §1 "Supplier delivery order").
export const SUPPLIER_RECEIPT_RULE: PostingRule = {
  name: "supplier_delivery_order",
  memo: "Supplier delivery order",
  legs: [leg("debit", "1200", "stock", "cost_total"), leg("credit", "2100", "received_not_billed", "cost_total")],
};

// A supplier invoice clears what its receipts put in 2100 at their value; what it charges beyond (or below) that goes
// to Price Variance; lines for nothing received (services, direct purchases) to an expense; GST input; the total is
// owed to the supplier (DOCUMENTS.md §1 "Supplier invoice/payment").
export const SUPPLIER_INVOICE_RULE: PostingRule = {
  name: "supplier_invoice",
  memo: "Supplier invoice",
  legs: [
    leg("debit", "2100", "received_not_billed", "received_value"),
    leg("debit", "5020", "price_variance", "price_variance"),
    leg("debit", "5000", "expense", "expense_total"),
    leg("debit", "1300", "input_tax", "tax_total"),
    leg("credit", "2000", "payable", "total"),
  ],
};

// Issue 11: goods returned to a supplier leave stock at the receipt's cost, taking back what the receipt put in
// 2100; what the supplier had already invoiced is debited against that invoice: 2000 lowered by the invoiced value
// with its GST, 2100 cleared at the goods' receipt cost, the difference back out of Price Variance, GST input
// reversed.
export const SUPPLIER_RETURN_RULE: PostingRule = {
  name: "supplier_return",
  memo: "Goods returned to supplier",
  legs: [leg("debit", "2100", "received_not_billed", "cost_total"), leg("credit", "1200", "stock", "cost_total")],
};

export const SUPPLIER_DEBIT_RULE: PostingRule = {
  name: "supplier_debit",
  memo: "Supplier debit",
  legs: [
    leg("debit", "2000", "payable", "total"),
    leg("credit", "2100", "received_not_billed", "received_value"),
    leg("credit", "5020", "price_variance", "price_variance"),
    leg("credit", "1300", "input_tax", "tax_total"),
  ],
};

// Issue 12: a progressive claim bills this claim's work to Contract revenue; its retention is owed later, so it
// sits in 1110 Retention receivable and the rest, with the GST on it, in 1100 Trade debtors. A release claim's
// retention_this_claim is negative: it moves the retention from 1110 to 1100 with the GST it carries (no revenue).
export const CLAIM_RULE: PostingRule = {
  name: "progressive_claim",
  memo: "Progressive claim",
  legs: [
    leg("debit", "1100", "receivable", "total"),
    leg("debit", "1110", "retention", "retention_this_claim"),
    leg("credit", "4010", "income", "this_claim_gross"),
    leg("credit", "2200", "output_tax", "tax_total"),
  ],
};

export const POSTING_RULES = {
  invoice: INVOICE_RULE,
  debit_note: DEBIT_NOTE_RULE,
  credit_note: CREDIT_NOTE_RULE,
  receipt: RECEIPT_RULE,
  supplier_payment: SUPPLIER_PAYMENT_RULE,
  delivery_order: DELIVERY_COGS_RULE,
  goods_return_note: GOODS_RETURN_RULE,
  goods_transfer_form: TRANSFER_DISPATCH_RULE,
  goods_transfer_receipt: TRANSFER_RECEIPT_RULE,
  loan_form: LOAN_OUT_RULE,
  loan_return: LOAN_RETURN_RULE,
  supplier_return: SUPPLIER_RETURN_RULE,
  supplier_debit: SUPPLIER_DEBIT_RULE,
  supplier_delivery_order: SUPPLIER_RECEIPT_RULE,
  supplier_invoice: SUPPLIER_INVOICE_RULE,
  progressive_claim: CLAIM_RULE,
} as const;

// The cost figure for the stock rules: each line's qty × unit cost rounded to cents, then summed, so the stock
// account moves by exactly the values the stock moves carry.
export function costTotal(lines: readonly { qty: string; unit_cost: string }[]): string {
  return money(sum(lines.map((l) => money(dec(l.qty).abs().times(dec(l.unit_cost))))));
}

// ---- journals --------------------------------------------------------------------------------------------------

export type JournalLine = { account_code: string; debit: string; credit: string; memo: string };

const line = (account_code: string, side: "debit" | "credit", amount: Decimal, memo: string): JournalLine => ({
  account_code,
  debit: side === "debit" ? money(amount) : "0.00",
  credit: side === "credit" ? money(amount) : "0.00",
  memo,
});

// Zero legs are left out (a zero-rated invoice has no GST line; a 100% discount posts nothing); a negative figure
// posts on the other side.
export function buildJournal(rule: PostingRule, doc: PostingDoc): JournalLine[] {
  const memo = doc.number ? `${rule.memo} ${doc.number}` : rule.memo;
  const lines: JournalLine[] = [];
  for (const l of rule.legs) {
    const figure = doc[l.amount];
    if (typeof figure !== "string") {
      throw new Error(`Posting rule "${rule.name}" reads "${l.amount}", which the document does not give`);
    }
    const amount = dec(money(figure));
    if (amount.isZero()) continue;
    const side = amount.isNegative() ? (l.side === "debit" ? "credit" : "debit") : l.side;
    lines.push(line(doc.accounts?.[l.role] ?? l.account, side, amount.abs(), memo));
  }
  return assertBalanced(withRoundOff(lines));
}

// Cancel writes a reversing entry (STYLE: the ledger is immutable); the server links it to the original.
export function reverse(lines: readonly JournalLine[], memo?: string): JournalLine[] {
  return lines.map((l) => ({ ...l, debit: l.credit, credit: l.debit, memo: memo ?? l.memo }));
}

const totalOf = (lines: readonly JournalLine[], side: "debit" | "credit") => sum(lines.map((l) => l[side]));

// ERPNext's round-off entry, with a one-cent allowance: a difference of at most 0.01 (what two independently
// rounded conversions can leave) goes to 6300 Rounding; anything more is a mistake and is refused.
export const ROUNDING_ALLOWANCE = "0.01";

export function withRoundOff(lines: readonly JournalLine[], memo = "Rounding"): JournalLine[] {
  const diff = totalOf(lines, "debit").minus(totalOf(lines, "credit"));
  if (diff.isZero() || diff.abs().greaterThan(ROUNDING_ALLOWANCE)) return [...lines];
  return [...lines, line(ROUNDING_ACCOUNT, diff.isPositive() ? "credit" : "debit", diff.abs(), memo)];
}

const CENTS = /^\d+\.\d{2}$/;

// Every entry balances (DESIGN: enforced in the database too); each line is one positive side in cents.
export function assertBalanced<L extends JournalLine>(lines: readonly L[]): L[] {
  for (const [i, l] of lines.entries()) {
    const n = i + 1;
    if (!l.account_code) throw new DocumentError(`Journal line ${n} has no account`);
    if (!CENTS.test(l.debit) || !CENTS.test(l.credit)) {
      throw new DocumentError(`Journal line ${n} needs amounts in cents that are not negative`);
    }
    if (new Dec(l.debit).isZero() === new Dec(l.credit).isZero()) {
      throw new DocumentError(`Journal line ${n} needs either a debit or a credit`);
    }
  }
  const debit = totalOf(lines, "debit");
  const credit = totalOf(lines, "credit");
  if (!debit.equals(credit)) {
    throw new DocumentError(`Debits (${money(debit)}) and credits (${money(credit)}) must be equal`);
  }
  return [...lines];
}
