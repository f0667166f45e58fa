import type { PgTable } from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { Feature } from "../tiers.ts";

// DESIGN §2.3: a resource is defined once; the REST engine, the generic list/detail/form pages and CSV
// import/export all read this definition. Names on the wire are the table's snake_case column names.

export type FieldKind =
  | "text"
  | "textarea"
  | "email"
  | "phone"
  | "url"
  | "integer"
  | "number"
  | "money"
  | "percent"
  | "boolean"
  | "date"
  | "datetime"
  | "enum"
  | "status"
  | "reference"
  | "tags"
  | "image";

export type FieldDef = {
  name: string; // column name on the wire, e.g. "payment_terms_days"
  label: string;
  kind: FieldKind;
  required?: boolean;
  readOnly?: boolean; // shown, never written by clients (ids, totals, timestamps)
  list?: boolean; // one of the default list columns
  form?: boolean; // false keeps a writable field off the generic form
  options?: readonly string[]; // enum and status values
  // kind "reference": target resource and its label column; `where`: the choices offered, column = value (a
  // delivery order's driver: users whose role is Driver).
  reference?: { resource: string; display: string; where?: Readonly<Record<string, string>> };
  help?: string;
  min?: number; // numeric fields: the smallest value allowed (mirrors the table's CHECK, so forms catch it first)
  max?: number; // numeric fields: the largest value allowed
  maxLength?: number; // text fields: the most characters allowed (default by kind: see textLimit)
  sitePath?: boolean; // url fields: a page of this site (/book-a-demo) is also taken
  format?: "uen"; // text fields: a Singapore UEN, kept in capitals (uen.ts)
  width?: number; // list column width hint in px
  operatorOnly?: boolean; // only platform operators write it (workspace.tier_id, workspace.suspended_at)
  afterCreate?: boolean; // set when the record is changed later (by who may change it), never when it is created
  // Reading it needs this permission beyond the resource's read ("product_cost.read": a supplier's user, a driver or
  // the POS read products but never our cost). The REST engine leaves it out of `*` and refuses naming it; the
  // generic pages hide it (fieldAccess).
  permission?: string;
  // Issue 23: a shared row's column read only by the workspace this other column names (a marketplace order's
  // sales_order_id by the seller, purchase_order_id by the buyer); every other reader reads null, and filters and
  // orders on it see the same null (the REST engine and realtime read it so).
  readBy?: string;
  // A column the server keeps for itself (a file's storage key): not on the wire at all — neither in `*`, nor to
  // name, filter or order by, nor in realtime's rows.
  serverOnly?: boolean;
};

// one: this row's `column` points at the target's `references` (product.category_id → category.id).
// many: the target's `column` points at this row's `references` (category.id ← product.category_id).
export type RelationDef = { resource: string; kind: "one" | "many"; column: string; references: string };

// A rule across fields (a project ends on or after it starts), checked by the insert and update schemas when
// every field it reads is given and valid. `constraint` names the table CHECK it mirrors, so that the
// database's own refusal (a patch that sends only one of the fields) reads the same.
export type RecordRule = {
  fields: readonly string[];
  check(values: Readonly<Record<string, unknown>>): boolean;
  field: string; // where the message lands
  message: string;
  constraint?: string;
};

// What a table CHECK's refusal tells the user, and on which field (none when it spans several).
export type CheckMessage = { field?: string; message: string };

export type ResourceScope = "tenant" | "platform" | "public";

import type { ResourceAction } from "../access.ts";

export type { ResourceAction };

export type ResourceDef = {
  name: string; // table name and /rest/v1 resource: singular snake_case
  title: string; // "Product"
  plural: string; // "Products"
  route: string | null; // dashboard path segment from spec §2 ("products", "categorys"); null: no generic page
  scope: ResourceScope; // tenant rows carry workspace_id; platform rows are operator-managed; public rows anon may read
  table: PgTable;
  fields: FieldDef[];
  relations: Record<string, RelationDef>;
  search: string[]; // columns the quick search matches (ilike)
  display: string; // label column, used by reference pickers and embeds
  defaultOrder: string; // PostgREST order, e.g. "name.asc"
  feature?: Feature; // tier feature the resource needs (spec §9)
  insert: z.ZodType<Record<string, unknown>>; // wire-shaped (snake_case) create schema
  update: z.ZodType<Record<string, unknown>>; // wire-shaped partial update schema
  // Optional refinements of who may do what (the REST engine enforces them; the web may read them to hide buttons):
  actions?: readonly ResourceAction[]; // what /rest/v1 offers at all (default: all four)
  writers?: "workspace" | "platform"; // who writes: members by permission (tenant default) or platform operators only
  featureActions?: readonly ResourceAction[]; // the actions `feature` gates (default: all)
  workspaceColumn?: string; // platform rows that belong to a workspace (workspace.id): members read their own row
  ownerColumn?: string; // a user-id column: members without `<name>.read` still read the rows they own
  // The owner column is the parent row's (a document's lines are their document's): { table, column } joins it.
  ownerParent?: { table: string; column: string };
  ownerHolds?: boolean; // own rows only for members holding another permission of the resource (a document's)
  unassignedIsOwn?: boolean; // a row whose owner column is empty is everyone's own too (an unassigned conversation)
  publicWhere?: Readonly<Record<string, boolean>>; // public scope: rows anyone may read (published, active)
  permissionOf?: string; // follows another resource's permissions (a document's lines: `quotation.read`)
  shared?: "published" | "parties"; // issue 23: marketplace rows other workspaces read (AccessDef.shared)
  keptCount?: boolean; // false: no kept row count (lines, ledgers: nobody lists them unfiltered; issue 10 §1)
  naturalKey?: string; // the unique column CSV import and upserts match existing rows on (product.sku)
  rules?: readonly RecordRule[];
  checks?: Readonly<Record<string, CheckMessage>>; // table CHECK name → message (rules' constraints added)
};

export const permission = (resource: string, action: string): string => `${resource}.${action}`;
