import { sql } from "drizzle-orm";
import { bigint, check, date, index, numeric, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { sameWorkspace, tenantColumns, tenantKeys, timestamps } from "./columns.ts";
import {
  documentHeaderColumns,
  documentHeaderKeys,
  documentLineColumns,
  documentLineKeys,
} from "./document-columns.ts";
import { location } from "./master-schema.ts";
import { workspace } from "./platform-schema.ts";

// Tables for goods transfer forms and loan forms (issue 11, DESIGN §2.3.1). Written only through the document
// commands; /rest/v1 reads them, lines embedded as select=*,lines:goods_transfer_form_line(*).

const money = (name: string) => numeric(name, { precision: 14, scale: 2 }).notNull().default(sql`0`);
const qty = (name: string) => numeric(name, { precision: 14, scale: 3 }).notNull().default(sql`0`);

// The workspace's own locations that hold goods nobody may sell from: stock between two locations of a transfer
// (`transit`) and stock lent to customers (`on_loan`). Made the first time a workspace needs one; the foreign key
// keeps such a location from being deleted.
export const SYSTEM_LOCATION_KINDS = ["transit", "on_loan"] as const;
export type SystemLocationKind = (typeof SYSTEM_LOCATION_KINDS)[number];

export const systemLocation = pgTable(
  "system_location",
  {
    ...tenantColumns,
    kind: text("kind", { enum: SYSTEM_LOCATION_KINDS }).notNull(),
    locationId: bigint("location_id", { mode: "number" }).notNull(),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("system_location", t, workspace),
    uniqueIndex("system_location_kind_key").on(t.workspaceId, t.kind),
    uniqueIndex("system_location_location_key").on(t.workspaceId, t.locationId),
    sameWorkspace("system_location_location_fk", [t.workspaceId, t.locationId], location),
    check("system_location_kind", sql`${t.kind} in ('transit', 'on_loan')`),
  ],
).enableRLS();

// Stock moved between two of the workspace's locations (ERPNext's Material Transfer with add_to_transit, Odoo's
// internal picking): dispatched into the transit location, received at the other end; what did not arrive is the
// line's qty_short, written off. A transfer has no customer: company_id is optional here.
export const goodsTransferForm = pgTable(
  "goods_transfer_form",
  {
    ...documentHeaderColumns,
    companyId: bigint("company_id", { mode: "number" }),
    fromLocationId: bigint("from_location_id", { mode: "number" }).notNull(),
    toLocationId: bigint("to_location_id", { mode: "number" }).notNull(),
    shortfallReason: text("shortfall_reason"),
  },
  (t) => [
    ...documentHeaderKeys("goods_transfer_form", t),
    sameWorkspace("goods_transfer_form_from_location_fk", [t.workspaceId, t.fromLocationId], location),
    sameWorkspace("goods_transfer_form_to_location_fk", [t.workspaceId, t.toLocationId], location),
  ],
).enableRLS();

export const goodsTransferFormLine = pgTable(
  "goods_transfer_form_line",
  {
    ...documentLineColumns,
    qtyReceived: qty("qty_received"),
    qtyShort: qty("qty_short"),
    goodsTransferFormId: bigint("goods_transfer_form_id", { mode: "number" }).notNull(),
  },
  (t) => documentLineKeys("goods_transfer_form_line", t, { column: t.goodsTransferFormId, table: goodsTransferForm }),
).enableRLS();

// Goods lent to a customer (demo units, equipment): out of `location_id` into the on-loan location until they come
// back (qty_returned) or the customer keeps them (qty_sold, drawn by the sales order made from the loan).
export const loanForm = pgTable(
  "loan_form",
  {
    ...documentHeaderColumns,
    dueDate: date("due_date").notNull(),
    deposit: money("deposit"),
    locationId: bigint("location_id", { mode: "number" }).notNull(),
  },
  (t) => [
    ...documentHeaderKeys("loan_form", t),
    index("loan_form_due_idx").on(t.workspaceId, t.status, t.dueDate),
    sameWorkspace("loan_form_location_fk", [t.workspaceId, t.locationId], location),
  ],
).enableRLS();

export const loanFormLine = pgTable(
  "loan_form_line",
  {
    ...documentLineColumns,
    locationId: bigint("location_id", { mode: "number" }),
    qtyReturned: qty("qty_returned"),
    qtySold: qty("qty_sold"),
    loanFormId: bigint("loan_form_id", { mode: "number" }).notNull(),
  },
  (t) => [
    ...documentLineKeys("loan_form_line", t, { column: t.loanFormId, table: loanForm }),
    sameWorkspace("loan_form_line_location_fk", [t.workspaceId, t.locationId], location),
  ],
).enableRLS();
