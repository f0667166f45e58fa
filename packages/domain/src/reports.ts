import type { Requirement } from "./access.ts";

// DESIGN §2.3.1 `report`: what each report needs of a member (the one access rule; the server refuses with the
// decision's message, the web hides the page) and the ageing buckets both sides name the same way.

// Receivables are the finance roles' (accounts_receivable.read): salespeople read invoices but not who owes what.
const RECEIVABLES: Requirement = {
  audience: "member",
  permission: "accounts_receivable.read",
  feature: "accounting",
  does: "read accounts receivable",
  subject: "Accounts receivable",
};

// Payables likewise (issue 11): finance managers and accounts staff read what is owed to suppliers.
const PAYABLES: Requirement = {
  audience: "member",
  permission: "accounts_payable.read",
  feature: "accounting",
  does: "read accounts payable",
  subject: "Accounts payable",
};

// Issue 12: trial balance, P&L, balance sheet, general ledger and GST F5 are financial reports (Premium), read by the
// finance roles (financial_reports.read).
const FINANCIAL: Requirement = {
  audience: "member",
  permission: "financial_reports.read",
  feature: "financial_reports",
  does: "read financial reports",
  subject: "Financial reports",
};

// Issue 12: sales, purchasing and stock reports need analytics (Pro).
const analytics = (permission: string, subject: string): Requirement => ({
  audience: "member",
  permission,
  feature: "analytics",
  does: `read ${subject.toLowerCase()}`,
  subject,
});

export const REPORT_ACCESS = {
  trial_balance: FINANCIAL,
  profit_and_loss: FINANCIAL,
  balance_sheet: FINANCIAL,
  general_ledger: FINANCIAL,
  gst_f5: FINANCIAL,
  // The journal lines and documents behind one figure (a P&L line, a GST box): drill-down from any report figure.
  journal_drill: FINANCIAL,
  supplier_statement: PAYABLES,
  sales_by_salesperson: analytics("invoice.read", "Sales reports"),
  sales_by_month: analytics("invoice.read", "Sales reports"),
  purchases_by_supplier: analytics("supplier_invoice.read", "Purchasing reports"),
  stock_movement: analytics("stock_move.read", "Stock reports"),
  // Issue 12 "Projects": what is held and released per project (projects feature, Pro).
  retention_schedule: {
    audience: "member",
    permission: "progressive_claim.read",
    feature: "projects",
    does: "read the retention schedule",
    subject: "Retention schedule",
  },
  // Issue 12 "Commission" (Premium): statements per salesperson and period.
  commission_statement: {
    audience: "member",
    permission: "commission.read",
    feature: "commission",
    does: "read commission statements",
    subject: "Commission statements",
    // A salesperson (commission.read_own, no commission.read) reads their own statements: scope "own".
    own: true,
    ownWith: "commission",
  },
  ar_ageing: RECEIVABLES,
  ap_ageing: PAYABLES,
  // Issue 11: whoever reads supplier invoices reads why one is held; the receipts' files, whoever reads receipts.
  three_way_check: {
    audience: "member",
    permission: "supplier_invoice.read",
    feature: "erp",
    does: "read the three-way check",
    subject: "The three-way check",
  },
  supplier_receipt_files: {
    audience: "member",
    permission: "supplier_delivery_order.read",
    feature: "erp",
    does: "read the supplier delivery orders' files",
    subject: "Receipt attachments",
  },
  customer_statement: RECEIVABLES,
  // Issue 12: sales, purchasing and stock reports need analytics (Pro) — these two were every tier's in issue 10.
  sales_by_customer: analytics("invoice.read", "Sales reports"),
  sales_by_product: analytics("invoice.read", "Sales reports"),
  // What the stock is worth is read by whoever reads the stock moves (the office roles, finance and the warehouse),
  // not by every holder of product.read: a driver, the POS or a supplier's user would read the company's costs.
  // Issue 12 makes it a stock report (analytics, Pro). The stock levels page and stock card: STOCK_ACCESS.
  stock_valuation: analytics("stock_move.read", "Stock reports"),
} as const satisfies Record<string, Requirement>;

export type ReportName = keyof typeof REPORT_ACCESS;

// Issue 11 "Stock": the stock levels page, the stock card and what to reorder — stock is held per location, so whoever
// reads the locations reads what is in them (the office roles and the warehouse; not a driver, the POS or a supplier's
// user, who read products only). Drafting purchase orders from them also needs purchase_order.create.
export const STOCK_ACCESS: Requirement = {
  audience: "member",
  permission: "location.read",
  feature: "erp",
  does: "read stock levels",
  subject: "Stock levels",
};

// Days past due = as-of date − due date. "Current" is not yet past due (due on the as-of date or later: an invoice
// due today is not overdue, as invoicePaymentStatus says); then 1–30, 31–60, 61–90 and over 90 days past due.
export const AGEING_BUCKETS = [
  { key: "current", label: "Current", min: null, max: 0 },
  { key: "days_1_30", label: "1–30", min: 1, max: 30 },
  { key: "days_31_60", label: "31–60", min: 31, max: 60 },
  { key: "days_61_90", label: "61–90", min: 61, max: 90 },
  { key: "days_over_90", label: "Over 90", min: 91, max: null },
] as const;

export type AgeingBucket = (typeof AGEING_BUCKETS)[number]["key"];

// Accounts payable ages as issue 11 words it, 0–30 / 31–60 / 61–90 / 90+, by days past the due date as ERPNext's
// payables ageing does: an invoice not yet due counts as 0 days and so sits in 0–30 (the report also names what is
// not yet due, overdue and due this week apart).
export const AP_AGEING_BUCKETS = [
  { key: "days_0_30", label: "0–30", min: null, max: 30 },
  { key: "days_31_60", label: "31–60", min: 31, max: 60 },
  { key: "days_61_90", label: "61–90", min: 61, max: 90 },
  { key: "days_over_90", label: "90+", min: 91, max: null },
] as const;

export function ageingBucket(daysPastDue: number): AgeingBucket {
  for (const b of AGEING_BUCKETS) {
    if ((b.min === null || daysPastDue >= b.min) && (b.max === null || daysPastDue <= b.max)) return b.key;
  }
  throw new Error(`No ageing bucket holds ${daysPastDue} days`);
}

// A report's answer (DESIGN §2.3.1): columns say how to show each row's values; money is a decimal string.
export type ReportColumn = { key: string; label: string; kind: "text" | "money" | "integer" | "date" };
// Issue 12: drill-down from any figure. `drill[i]` (parallel to rows, optional) says where row i leads: another
// report with its parameters (a P&L line → general_ledger of that account and period; a GST box → journal_drill),
// or the document behind it. `key` names the column that identifies a row, so the reports page can line up the
// same report over the previous period (comparison is two calls, matched by key).
export type ReportDrill =
  | { report: string; params: Record<string, string> }
  | { document: { type: string; id: number; number?: string | null } };
export type ReportResult = {
  columns: ReportColumn[];
  rows: Record<string, string | number | null>[];
  totals: Record<string, string | number>;
  key?: string;
  drill?: (ReportDrill | null)[];
};

// The permission matrix's rows for what reports need beyond the documents' own permissions (as STORAGE_GRANTS does
// for files), so a role's receivables access can be granted and survives saving the matrix.
export const REPORT_GRANTS = [
  { name: "accounts_receivable", plural: "Accounts receivable", actions: ["read"] },
  { name: "accounts_payable", plural: "Accounts payable", actions: ["read"] },
  { name: "financial_reports", plural: "Financial reports", actions: ["read"] },
  // Issue 12 "Commission" (commission.ts): read everyone's statements and the rules, change the rules, approve and
  // pay statements; a salesperson's own statements are "read own", held without read (COMMISSION_STATEMENT_ACCESS).
  {
    name: "commission",
    plural: "Commission",
    actions: ["read", "update"],
    other: [
      { action: "read_own", label: "Read own", help: "Their own commission statements only", alone: true },
      { action: "approve", label: "Approve / Pay", help: "Approve a period's statements and record their payment" },
    ],
  },
] as const;
