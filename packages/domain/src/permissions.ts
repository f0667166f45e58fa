import { ROLE } from "./roles.ts";

// Issue 4 item 7: permissions are `<resource>.<action>`. System roles come with these defaults; a workspace
// admin may override a role's set (role_permission rows replace the default for that role).
// "*" grants everything; "<resource>.*" every action on one resource; ".read" suffix patterns via "*.read".
// Files (issue 9 §3): `file.read|create|update|delete` and `bucket.create|update|delete`; "*.read" reads files too.
// Office roles read and upload, managers and finance also change and delete; buckets are for owners and admins.
// Issue 10 §3: a pattern starting with "!" takes away what the others grant ("!journal_entry.*"): sales roles read
// everything but the books and the receivables report, which are for finance and accounts.
export type PermissionPattern = string;

// What is owed to suppliers and what was paid them is finance's too (issue 11).
const PAYABLES_DENIED: readonly PermissionPattern[] = ["!accounts_payable.*", "!supplier_payment.*"];

// Issue 21 §1 "Least privilege": what we buy, from whom and at what price is the buyers' and finance's — a salesperson
// sells (ERPNext's Sales User reads no Purchase Order or Purchase Invoice either).
const BUYING_DENIED: readonly PermissionPattern[] = [
  "!purchase_order.*",
  "!supplier_delivery_order.*",
  "!supplier_invoice.*",
  "!supplier_discount_form.*",
];

// What only finance roles (and owners and admins) read: the chart of accounts, the journal and receivables.
const BOOKS_DENIED: readonly PermissionPattern[] = [
  "!account.*",
  "!journal_entry.*",
  "!bank_account.*",
  "!financial_reports.*", // issue 12: trial balance, P&L, balance sheet, general ledger, GST F5
  "!accounts_receivable.*",
  ...PAYABLES_DENIED,
];

// Issue 21 §4 (HR): every member reads the staff directory, the leave types and the public holidays, and asks and
// reads their own leave (leave_request's owner); a manager decides their reports' requests by being their manager.
// Everyone's leave, the private fields of employees and deciding anyone's request are HR's: owners and admins.
const HR_MEMBER: readonly PermissionPattern[] = ["employee.read", "leave_type.read", "public_holiday.read"];
const HR_DENIED: readonly PermissionPattern[] = ["!employee_private.*", "!leave_request.*"];

// Issue 24: every employee claims back what they spent (expense_claim's owner is created_by): without
// expense_claim.read they read and act on their own claims only; managers and finance approve and reimburse.
const EXPENSE_OWN: readonly PermissionPattern[] = [
  "!expense_claim.read",
  "expense_claim.create",
  "expense_claim.update",
  "expense_claim.submit",
  "expense_claim.cancel",
];

export const DEFAULT_ROLE_PERMISSIONS: Record<number, readonly PermissionPattern[]> = {
  [ROLE.Owner]: ["*"],
  [ROLE.Admin]: ["*"],
  // Sales managers see receivables (their customers' debts) but not the journal; they approve below-cost lines.
  [ROLE.SalesManager]: [
    "*.read",
    ...HR_DENIED,
    "!account.*",
    "!journal_entry.*",
    "!bank_account.*",
    "!financial_reports.*",
    ...PAYABLES_DENIED,
    "company.*",
    "contact.*",
    "memo.*",
    "quotation.*",
    "sales_order.*",
    "delivery_order.*",
    "delivery_instruction.*",
    "customer_order.*",
    "order_form.*",
    "invoice.*",
    "receipt.*",
    "credit_note.*",
    "debit_note.*",
    "goods_return_note.*",
    "loan_form.*", // issue 11: they lend demo units to customers and sell what is kept
    "project_registration.*", // issue 11: they review the projects resellers register…
    "project.create", // …and approving one makes its project
    "progressive_claim.*", // issue 12: they bill projects by progressive claims
    "team_challenge.*", // issue 12: they set the team's challenges
    "marketplace_account.*", // issue 23: they run the marketplace shop — profile, listings, orders, chat
    "marketplace_product.*",
    "marketplace_sales_order.*",
    "marketplace_message.*",
    "outside_email.create", // issue 21 §2: they send documents wherever the customer asks
    "conversation.*", // issue 24: every conversation of the inbox, answered and assigned to anyone
    "canned_reply.*",
    "expense_claim.*", // issue 24: they approve (or reject) the team's expense claims; finance reimburses
    "!expense_claim.pay",
    "file.*",
    "feedback.create",
  ],
  // Salespeople quote and draft orders; a line below cost needs quotation.approve, which is the sales manager's.
  // Their quotations and sales orders are their own (issue 10 §3): without quotation.read and sales_order.read
  // they read and act on the ones they created (the types' owner, decide's scope "own"); a sales manager sees all.
  [ROLE.Salesperson]: [
    "*.read",
    ...HR_DENIED,
    ...BOOKS_DENIED,
    "!quotation.read",
    "!sales_order.read",
    ...BUYING_DENIED,
    "!commission.read", // issue 12: a salesperson reads their own commission statements only (scope "own")…
    "commission.read_own", // …which holding a commission permission gives them (COMMISSION_STATEMENT_ACCESS)
    "company.create",
    "company.update",
    "contact.*",
    "memo.create",
    "quotation.create",
    "quotation.update",
    "quotation.submit",
    "quotation.cancel",
    "sales_order.create",
    "sales_order.update",
    "customer_order.update",
    "order_form.create",
    "order_form.update",
    "outside_email.create",
    "!conversation.read", // issue 24: their own and the unassigned conversations (scope "own")…
    "conversation.reply", // …which they answer, take and hand back
    "conversation.assign",
    ...EXPENSE_OWN, // issue 24: their own expense claims
    "file.create",
    "feedback.create",
  ],
  // Drivers, POS staff and suppliers get no file permission: a file reaches them as a share link (issue 9 §3).
  // Drivers complete deliveries but do not hold delivery_order.read: they read, and so complete, only the delivery
  // orders assigned to them (the type's owner is its driver_id; decide's scope "own").
  [ROLE.Driver]: [
    ...HR_MEMBER,
    "delivery_order.complete",
    "delivery_instruction.read",
    ...EXPENSE_OWN,
    "company.read",
    "contact.read",
    "product.read",
    "feedback.create",
  ],
  [ROLE.WarehouseStaff]: [
    ...HR_MEMBER,
    "product.*",
    "product_cost.read", // they value stock; a driver, the POS and a supplier's user read products without our cost
    "category.read",
    "brand.read",
    "location.*",
    "stock_move.read", // issue 12: the stock valuation and movement reports
    "reorder_level.*",
    "delivery_order.read",
    "delivery_order.update",
    "delivery_order.complete", // a customer collecting at the warehouse signs there
    "delivery_instruction.*",
    "sales_order.read",
    "goods_transfer_form.*",
    "loan_form.*", // issue 11: goods lent out and taken back at the warehouse
    "company.read", // the customer a loan is lent to
    "goods_return_note.*",
    "purchase_order.read", // issue 11: the storekeeper receives against purchase orders
    "supplier_delivery_order.*",
    "pick_list.*", // issue 22: they pick, count and keep the products' bins; applying a count is a manager's
    "delivery_order.create", // a finished pick list makes its delivery order draft
    "stock_count.create", // blind: they submit counts but never read one (its system quantities)
    "stock_count.submit",
    "product_bin.*",
    ...EXPENSE_OWN,
    "file.read",
    "file.create",
    "feedback.create",
  ],
  // Issue 22: the counter's sales, refunds and sessions; a line discount beyond POS_STAFF_DISCOUNT_LIMIT needs
  // pos_discount.override and choosing the favourites grid pos_favourite.update (both owners' and admins').
  [ROLE.PosStaff]: [
    ...HR_MEMBER,
    "pos_order.*",
    "pos_session.*",
    "pos_favourite.read", // the favourites grid; choosing it (pos_favourite.update) is an owner's or admin's
    ...EXPENSE_OWN,
    "location.read",
    "product.read",
    "service.read",
    "company.read",
    "invoice.create",
    "invoice.read",
    "feedback.create",
  ],
  40: [
    "*.read",
    ...HR_DENIED,
    "invoice.*",
    "receipt.*",
    "supplier_invoice.*",
    "supplier_payment.*", // issue 11: finance managers pay suppliers (and cancel a payment)
    "purchase_order.approve", // issue 11: and approve purchase orders above the threshold
    "credit_note.*",
    "debit_note.*",
    "journal_entry.*",
    "account.*", // issue 12: the chart of accounts, the lock date and the year-end close
    "bank_account.*",
    "financial_reports.*",
    "progressive_claim.*",
    "commission.*", // issue 12: approve and pay commission statements
    "expense_claim.*", // issue 24: approve and reimburse expense claims
    "accounts_payable.*",
    "accounts_receivable.*",
    "outside_email.create",
    "file.*",
    "feedback.create",
  ], // finance_manager
  41: [
    "*.read",
    ...HR_DENIED,
    ...BOOKS_DENIED,
    "company.*",
    "contact.*",
    "purchase_order.*",
    "!purchase_order.approve", // issue 11: a buyer does not approve their own orders; finance does
    "supplier_delivery_order.*",
    "supplier_discount_form.*", // issue 11: they ask suppliers for discounts
    "marketplace_sales_order.create", // issue 23: they buy on the marketplace and chat with its sellers
    "marketplace_message.*",
    "reorder_level.*",
    ...EXPENSE_OWN,
    "outside_email.create", // purchase orders to the supplier's sales desk
    "file.create",
    "feedback.create",
  ], // procurement_officer
  42: [
    "*.read",
    ...HR_DENIED,
    "invoice.*",
    "receipt.*",
    "credit_note.*",
    "journal_entry.*",
    "bank_account.*",
    "financial_reports.*",
    "supplier_invoice.*",
    "!supplier_invoice.release", // issue 11: releasing a three-way exception to pay is the finance manager's
    "expense_claim.create", // issue 24: their own claims, and they reimburse approved ones (reading every claim)
    "expense_claim.update",
    "expense_claim.submit",
    "expense_claim.cancel",
    "expense_claim.pay",
    "accounts_payable.*",
    "accounts_receivable.*",
    "debit_note.*",
    "outside_email.create",
    "file.create",
    "feedback.create",
  ], // accounts
  // A supplier's user answers the discount requests addressed to their company. Purchase orders, receipts and
  // supplier invoices have no per-supplier scope yet: reading them would show every other supplier's, so a supplier
  // gets none of them (issue 11).
  43: [
    "product.read",
    "supplier_discount_form.respond", // issue 11: confirm or reject the forms addressed to their company
    "feedback.create",
  ], // supplier
};

export function matches(pattern: PermissionPattern, wanted: string): boolean {
  if (pattern === "*" || pattern === wanted) return true;
  const [pr, pa] = pattern.split(".");
  const [wr, wa] = wanted.split(".");
  return (pr === "*" && pa === wa) || (pa === "*" && pr === wr);
}

export function can(granted: readonly PermissionPattern[], wanted: string): boolean {
  let ok = false;
  for (const p of granted) {
    if (p.startsWith("!")) {
      if (matches(p.slice(1), wanted)) return false;
    } else if (!ok && matches(p, wanted)) ok = true;
  }
  return ok;
}

// The permissions a member holds: the workspace role's set when one is assigned, else the system role's defaults
// (issue 4 item 7). The server checks these and sends them with the profile, so the web offers the same.
export const effectivePermissions = (roleId: number, workspaceRole: readonly string[] | null): readonly string[] =>
  workspaceRole ?? DEFAULT_ROLE_PERMISSIONS[roleId] ?? [];
