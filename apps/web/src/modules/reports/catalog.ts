import { type Decision, decide, type Member } from "@workmetrics/domain";
import { AGEING_BUCKETS, AP_AGEING_BUCKETS, REPORT_ACCESS, type ReportName } from "@workmetrics/domain/reports";

// Issue 12: every report the reports page lists, by area — what it is called, what it asks for (a period, a date, a
// GST quarter, a customer or supplier, an account), the chart that says more than its table, and the page of its
// own where one already exists (accounts receivable and payable open from the ledgers' pages, which do more). Who
// may read each is REPORT_ACCESS (the one access rule); the page shows what the member may read and locks what the
// tier does not include.

export type ReportArea = "Accounting" | "Sales" | "Purchasing" | "Stock" | "Projects" | "Commission";

export const AREAS: ReportArea[] = ["Accounting", "Sales", "Purchasing", "Stock", "Projects", "Commission"];

// range: from/to; as_of: one date; quarter: a GST quarter (from/to of its three months); the others add a record.
export type ParamsKind = "range" | "as_of" | "quarter" | "customer_range" | "supplier_range" | "account_range";

// bars: one bar per row of `value` (labelled by `label`); pl: income against expenses; ageing: the buckets' totals.
export type ChartSpec =
  | { kind: "bars"; label: string; values: string[] }
  | { kind: "pl" }
  | { kind: "ageing"; buckets: string[] };

export type ReportEntry = {
  name: ReportName;
  area: ReportArea;
  title: string;
  description: string;
  params: ParamsKind;
  chart?: ChartSpec;
  compare?: string[]; // the money columns "Compare with previous period" sets beside their previous figure (all)
  page?: string; // a page of its own under /dashboard that the list links to instead
  drillOnly?: boolean; // reached by drilling into a figure, never listed
};

export const REPORTS: readonly ReportEntry[] = [
  {
    name: "profit_and_loss",
    area: "Accounting",
    title: "Profit and loss",
    description: "Income, cost of sales and expenses for a period, and the net profit.",
    params: "range",
    chart: { kind: "pl" },
  },
  {
    name: "balance_sheet",
    area: "Accounting",
    title: "Balance sheet",
    description: "Assets, liabilities and equity on a date; the period's profit shown in equity.",
    params: "as_of",
  },
  {
    name: "trial_balance",
    compare: ["closing"],
    area: "Accounting",
    title: "Trial balance",
    description: "Every account's debit or credit balance; the two columns agree.",
    params: "range",
  },
  {
    name: "general_ledger",
    area: "Accounting",
    title: "General ledger",
    description: "One account's journal lines with the running balance.",
    params: "account_range",
  },
  {
    name: "gst_f5",
    area: "Accounting",
    title: "GST F5",
    description: "The quarter's GST return, boxes 1 to 8 from the tax codes; file it when it is right.",
    params: "quarter",
  },
  {
    name: "ar_ageing",
    area: "Accounting",
    title: "Accounts receivable ageing",
    description: "What customers owe, by days past due.",
    params: "as_of",
    chart: { kind: "ageing", buckets: AGEING_BUCKETS.map((b) => b.key) },
    page: "accounts-receivable",
  },
  {
    name: "ap_ageing",
    area: "Accounting",
    title: "Accounts payable ageing",
    description: "What is owed to suppliers, by days past due.",
    params: "as_of",
    chart: { kind: "ageing", buckets: AP_AGEING_BUCKETS.map((b) => b.key) },
    page: "accounts-payable",
  },
  {
    name: "customer_statement",
    area: "Accounting",
    title: "Customer statement",
    description: "A customer's charges and payments with the running balance.",
    params: "customer_range",
  },
  {
    name: "supplier_statement",
    area: "Accounting",
    title: "Supplier statement",
    description: "A supplier's invoices, payments and debit notes with the running balance.",
    params: "supplier_range",
  },
  {
    name: "journal_drill",
    area: "Accounting",
    title: "Journal lines",
    description: "The journal lines behind a figure.",
    params: "range",
    drillOnly: true,
  },
  {
    name: "sales_by_month",
    compare: ["net_sales"],
    area: "Sales",
    title: "Sales by month",
    description: "Net sales per month, credit notes taken off in the month they are issued.",
    params: "range",
    chart: { kind: "bars", label: "month", values: ["net_sales"] },
  },
  {
    name: "sales_by_customer",
    compare: ["net"],
    area: "Sales",
    title: "Sales by customer",
    description: "What each customer was invoiced in the period.",
    params: "range",
    chart: { kind: "bars", label: "company", values: ["net"] },
  },
  {
    name: "sales_by_product",
    compare: ["net"],
    area: "Sales",
    title: "Sales by product",
    description: "Quantities and net sales per product.",
    params: "range",
    chart: { kind: "bars", label: "product", values: ["net"] },
  },
  {
    name: "sales_by_salesperson",
    compare: ["net_sales"],
    area: "Sales",
    title: "Sales by salesperson",
    description: "Net sales per salesperson, less what their invoices were credited.",
    params: "range",
    chart: { kind: "bars", label: "salesperson", values: ["net_sales"] },
  },
  {
    name: "purchases_by_supplier",
    compare: ["net"],
    area: "Purchasing",
    title: "Purchases by supplier",
    description: "What each supplier invoiced in the period, and their debit notes.",
    params: "range",
    chart: { kind: "bars", label: "supplier", values: ["net"] },
  },
  {
    name: "stock_valuation",
    compare: ["value"],
    area: "Stock",
    title: "Stock valuation",
    description: "What the stock in hand is worth on a date, at moving-average cost.",
    params: "as_of",
  },
  {
    name: "stock_movement",
    compare: ["closing_value"],
    area: "Stock",
    title: "Stock movement",
    description: "Per product: opening stock, what came in and went out, closing stock.",
    params: "range",
  },
  {
    name: "retention_schedule",
    compare: ["held", "released", "balance"],
    area: "Projects",
    title: "Retention schedule",
    description:
      "Per project and contract: the retention its progressive claims held, what was released, and when the rest is due.",
    params: "as_of",
    chart: { kind: "bars", label: "contract", values: ["held", "released"] },
  },
  {
    name: "commission_statement",
    area: "Commission",
    title: "Commission statements",
    description: "Each salesperson's commission for a period, approved and paid.",
    params: "range",
    page: "reports/commission",
  },
] as const;

export const findReportEntry = (name: string): ReportEntry | undefined => REPORTS.find((r) => r.name === name);

// What the reports page lists for a member: each report they may read, and each their tier locks (shown locked with
// the plan that has it); one their role may not read is left out (the one access rule).
export function listedReports(member: Member): Array<{ entry: ReportEntry; decision: Decision }> {
  return REPORTS.filter((e) => !e.drillOnly)
    .map((entry) => ({ entry, decision: decide(member, REPORT_ACCESS[entry.name]) }))
    .filter((l) => l.decision.allowed || l.decision.reason === "tier");
}
