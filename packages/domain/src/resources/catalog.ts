import type { AccessDef } from "../access.ts";

// Who may use each resource, in the light form the navigation and the access rule read without the registry
// (no tables or schemas): the resource definitions spread their entry, so it is said once.
export type CatalogEntry = AccessDef & { title: string; route: string | null };

export const CATALOG = {
  user: {
    name: "user",
    title: "User",
    plural: "Users",
    route: "users",
    scope: "tenant",
    actions: ["read", "update"], // users join through the auth invite flow, never by a bare insert
    ownerColumn: "id",
  },
  workspace_role: {
    name: "workspace_role",
    title: "Role",
    plural: "Roles",
    route: "roles",
    scope: "tenant",
    feature: "roles",
    featureActions: ["create", "update", "delete"], // every tier reads its roles; custom roles are a Pro feature
  },
  feedback: {
    name: "feedback",
    title: "Feedback",
    plural: "Feedbacks",
    route: "feedbacks",
    scope: "tenant",
    ownerColumn: "user_id",
  },
  subscription: {
    name: "subscription",
    title: "Subscription",
    plural: "Subscriptions",
    route: null,
    scope: "tenant",
    actions: ["read"],
    writers: "platform",
  },
  credit_entry: {
    name: "credit_entry",
    title: "Credit",
    plural: "Credits",
    route: "credits",
    scope: "tenant",
    actions: ["read", "create"], // a ledger: corrections are new entries
    writers: "platform",
  },
  workspace: {
    name: "workspace",
    title: "Workspace",
    plural: "Workspaces",
    route: "workspaces",
    scope: "platform",
    workspaceColumn: "id",
    actions: ["read", "update"], // created by company sign-up
  },
  tier: {
    name: "tier",
    title: "Tier",
    plural: "Tiers",
    route: "tiers",
    scope: "public",
    actions: ["read", "update"], // the three tiers of spec §9 have fixed ids
  },
  coupon: {
    name: "coupon",
    title: "Coupon",
    plural: "Coupons",
    route: "coupons",
    scope: "platform",
  },
  banner: {
    name: "banner",
    title: "Banner",
    plural: "Banners",
    route: "banners",
    scope: "public",
  },
  case_study: {
    name: "case_study",
    title: "Case study",
    plural: "Case studies",
    route: "case-studies",
    scope: "public",
  },
  demo_request: {
    name: "demo_request",
    title: "Demo request",
    plural: "Demo requests",
    route: "demo-requests",
    scope: "platform",
    actions: ["read", "update", "delete"], // created by the public /book-a-demo form
  },
  role: {
    name: "role",
    title: "System role",
    plural: "System roles",
    route: null,
    scope: "public",
    actions: ["read"],
  },
  company: {
    name: "company",
    title: "Company",
    plural: "Companies",
    route: "companies",
    scope: "tenant",
    feature: "erp",
  },
  contact: {
    name: "contact",
    title: "Contact",
    plural: "Contacts",
    route: "contacts",
    scope: "tenant",
    feature: "erp",
  },
  memo: {
    name: "memo",
    title: "Memo",
    plural: "Memos",
    route: "memos",
    scope: "tenant",
    feature: "erp",
  },
  memo_read: {
    name: "memo_read",
    title: "Memo read receipt",
    plural: "Memo read receipts",
    route: null,
    scope: "tenant",
    feature: "erp",
    actions: ["read"],
    ownerColumn: "user_id",
  },
  product: {
    name: "product",
    title: "Product",
    plural: "Products",
    route: "products",
    scope: "tenant",
    feature: "erp",
  },
  category: {
    name: "category",
    title: "Category",
    plural: "Categories",
    route: "categorys",
    scope: "tenant",
    feature: "erp",
  },
  brand: {
    name: "brand",
    title: "Brand",
    plural: "Brands",
    route: "brands",
    scope: "tenant",
    feature: "erp",
  },
  location: {
    name: "location",
    title: "Location",
    plural: "Locations",
    route: "locations",
    scope: "tenant",
    feature: "erp",
  },
  service: {
    name: "service",
    title: "Service",
    plural: "Services",
    route: "services",
    scope: "tenant",
    feature: "erp",
  },
  project: {
    name: "project",
    title: "Project",
    plural: "Projects",
    route: "projects",
    scope: "tenant",
    feature: "projects",
  },
  project_group: {
    name: "project_group",
    title: "Project group",
    plural: "Project groups",
    route: "project-groups",
    scope: "tenant",
    feature: "projects",
  },
  project_brand: {
    name: "project_brand",
    title: "Project brand",
    plural: "Project brands",
    route: "project-brands",
    scope: "tenant",
    feature: "projects",
  },
  project_currency: {
    name: "project_currency",
    title: "Project currency",
    plural: "Project currencies",
    route: "project-currencies",
    scope: "tenant",
    feature: "projects",
  },
  currency_factor: {
    name: "currency_factor",
    title: "Currency factor",
    plural: "Currency factors",
    route: "currency-factors",
    scope: "tenant",
    feature: "projects",
  },
} as const satisfies Record<string, CatalogEntry>;

export type ResourceName = keyof typeof CATALOG;

const ENTRIES: readonly CatalogEntry[] = Object.values(CATALOG);

export const catalogByRoute = (route: string): CatalogEntry | undefined => ENTRIES.find((e) => e.route === route);
