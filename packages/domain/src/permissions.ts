import { ROLE } from "./roles.ts";

// Issue 4 item 7: permissions are `<resource>.<action>`. System roles come with these defaults; a workspace
// admin may override a role's set (role_permission rows replace the default for that role).
// "*" grants everything; "<resource>.*" every action on one resource; ".read" suffix patterns via "*.read".
// Files (issue 9 §3): `file.read|create|update|delete` and `bucket.create|update|delete`; "*.read" reads files too.
// Office roles read and upload, managers and finance also change and delete; buckets are for owners and admins.
export type PermissionPattern = string;

export const DEFAULT_ROLE_PERMISSIONS: Record<number, readonly PermissionPattern[]> = {
  [ROLE.Owner]: ["*"],
  [ROLE.Admin]: ["*"],
  [ROLE.SalesManager]: [
    "*.read",
    "company.*",
    "contact.*",
    "memo.*",
    "quotation.*",
    "sales_order.*",
    "delivery_order.*",
    "invoice.*",
    "receipt.*",
    "credit_note.*",
    "file.*",
    "feedback.create",
  ],
  [ROLE.Salesperson]: [
    "*.read",
    "company.create",
    "company.update",
    "contact.*",
    "memo.create",
    "quotation.*",
    "sales_order.create",
    "sales_order.update",
    "file.create",
    "feedback.create",
  ],
  // Drivers, POS staff and suppliers get no file permission: a file reaches them as a share link (issue 9 §3).
  [ROLE.Driver]: [
    "delivery_order.read",
    "delivery_order.update",
    "company.read",
    "contact.read",
    "product.read",
    "feedback.create",
  ],
  [ROLE.WarehouseStaff]: [
    "product.*",
    "category.read",
    "brand.read",
    "location.*",
    "delivery_order.read",
    "delivery_order.update",
    "goods_transfer_form.*",
    "goods_return_note.*",
    "file.read",
    "file.create",
    "feedback.create",
  ],
  [ROLE.PosStaff]: [
    "product.read",
    "service.read",
    "company.read",
    "invoice.create",
    "invoice.read",
    "feedback.create",
  ],
  40: [
    "*.read",
    "invoice.*",
    "receipt.*",
    "supplier_invoice.*",
    "credit_note.*",
    "debit_note.*",
    "accounts_payable.*",
    "accounts_receivable.*",
    "file.*",
    "feedback.create",
  ], // finance_manager
  41: [
    "*.read",
    "company.*",
    "contact.*",
    "purchase_order.*",
    "supplier_delivery_order.*",
    "supplier_invoice.create",
    "file.create",
    "feedback.create",
  ], // procurement_officer
  42: [
    "*.read",
    "invoice.*",
    "receipt.*",
    "supplier_invoice.*",
    "accounts_payable.*",
    "accounts_receivable.*",
    "file.create",
    "feedback.create",
  ], // accounts
  43: [
    "product.read",
    "purchase_order.read",
    "supplier_delivery_order.*",
    "supplier_invoice.create",
    "supplier_invoice.read",
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
  return granted.some((p) => matches(p, wanted));
}

// The permissions a member holds: the workspace role's set when one is assigned, else the system role's defaults
// (issue 4 item 7). The server checks these and sends them with the profile, so the web offers the same.
export const effectivePermissions = (roleId: number, workspaceRole: readonly string[] | null): readonly string[] =>
  workspaceRole ?? DEFAULT_ROLE_PERMISSIONS[roleId] ?? [];
