// Spec §3 (role ids) and §6 (role flags, slugs).
export const ROLE = {
  Admin: 1,
  SalesManager: 2,
  Salesperson: 3,
  Driver: 5,
  WarehouseStaff: 6,
  PosStaff: 7,
  Owner: 31,
} as const;

export type SystemRole = { id: number; slug: string; title: string };

// Roles without a fixed id in the spec get ids of our own, clear of the spec's.
export const SYSTEM_ROLES: readonly SystemRole[] = [
  { id: ROLE.Admin, slug: "admin", title: "Admin" },
  { id: ROLE.SalesManager, slug: "sales_manager", title: "Sales Manager" },
  { id: ROLE.Salesperson, slug: "salesperson", title: "Salesperson" },
  { id: ROLE.Driver, slug: "driver", title: "Driver" },
  { id: ROLE.WarehouseStaff, slug: "warehouse_staff", title: "Warehouse Staff" },
  { id: ROLE.PosStaff, slug: "pos_staff", title: "POS Staff" },
  { id: ROLE.Owner, slug: "owner", title: "Owner" },
  { id: 40, slug: "finance_manager", title: "Finance Manager" },
  { id: 41, slug: "procurement_officer", title: "Procurement Officer" },
  { id: 42, slug: "accounts", title: "Accounts" },
  { id: 43, slug: "supplier", title: "Supplier" },
];

export type RoleFlags = {
  isAdmin: boolean;
  isDriver: boolean;
  isWarehouseStaff: boolean;
  isPosStaff: boolean;
  isOwner: boolean;
  isSalesperson: boolean;
  isSupplier: boolean;
};

export function roleFlags(roleId: number | null | undefined, roleSlug?: string | null): RoleFlags {
  return {
    isAdmin: roleId === ROLE.Admin,
    isDriver: roleId === ROLE.Driver,
    isWarehouseStaff: roleId === ROLE.WarehouseStaff,
    isPosStaff: roleId === ROLE.PosStaff,
    isOwner: roleId === ROLE.Owner,
    isSalesperson: roleId === ROLE.Salesperson,
    isSupplier: roleSlug === "supplier",
  };
}
