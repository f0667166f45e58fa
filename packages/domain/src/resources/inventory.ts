import {
  goodsTransferForm,
  goodsTransferFormLine,
  loanForm,
  loanFormLine,
  systemLocation,
} from "../db/inventory-schema.ts";
import { GOODS_TRANSFER_FORM } from "../documents/types/goods-transfer-form.ts";
import { LOAN_FORM } from "../documents/types/loan-form.ts";
import { CATALOG } from "./catalog.ts";
import { defineResource } from "./define.ts";
import { documentHeaderFields, documentLineFields, documentResources } from "./documents.ts";
import { auditFields, f, idField } from "./fields.ts";
import type { ResourceDef } from "./types.ts";

// Issue 11: goods transfer forms and loan forms, read through /rest/v1 (written by the document commands), pages at
// /dashboard/goods-transfer-forms and /dashboard/loan-forms (catalog.ts routes); the workspace's transit and on-loan
// locations as system_location.

const ro = { readOnly: true };

// A transfer has no customer: the shared company field stays on the table, off the form and the list.
const noCustomer = (fields: ReturnType<typeof documentHeaderFields>) =>
  fields.map((x) =>
    x.name === "company_id" ? { ...x, required: false, readOnly: true, list: false, form: false } : x,
  );

export const [goodsTransferFormResource, goodsTransferFormLineResource] = documentResources(
  "goods_transfer_form",
  {
    entry: CATALOG.goods_transfer_form,
    table: goodsTransferForm,
    fields: noCustomer(
      documentHeaderFields(GOODS_TRANSFER_FORM.statusNames, [
        f.ref("from_location_id", "From location", "location", "name", { required: true, list: true, width: 160 }),
        f.ref("to_location_id", "To location", "location", "name", { required: true, list: true, width: 160 }),
        f.text("shortfall_reason", "Reason for the shortfall", { ...ro, list: true, width: 200 }),
      ]),
    ),
  },
  {
    entry: CATALOG.goods_transfer_form_line,
    table: goodsTransferFormLine,
    fields: documentLineFields("goods_transfer_form", [
      f.number("qty_received", "Received", { ...ro, list: true }),
      f.number("qty_short", "Short", { ...ro, list: true }),
    ]),
  },
);

export const [loanFormResource, loanFormLineResource] = documentResources(
  "loan_form",
  {
    entry: CATALOG.loan_form,
    table: loanForm,
    fields: documentHeaderFields(LOAN_FORM.statusNames, [
      f.date("due_date", "Due back", { required: true, list: true, width: 120 }),
      f.money("deposit", "Deposit", { min: 0, list: true, width: 110 }),
      f.ref("location_id", "From location", "location", "name", { required: true, list: true, width: 150 }),
    ]),
  },
  {
    entry: CATALOG.loan_form_line,
    table: loanFormLine,
    fields: documentLineFields("loan_form", [
      f.ref("location_id", "Location", "location", "name"),
      f.number("qty_returned", "Returned", { ...ro, list: true }),
      f.number("qty_sold", "Sold", { ...ro, list: true }),
    ]),
  },
);

export const systemLocationResource = defineResource({
  ...CATALOG.system_location,
  table: systemLocation,
  display: "kind",
  search: ["kind"],
  defaultOrder: "kind.asc",
  fields: [
    idField(),
    f.enum("kind", "Kind", ["transit", "on_loan"], { ...ro, list: true }),
    f.ref("location_id", "Location", "location", "name", { ...ro, list: true }),
    ...auditFields,
  ],
  relations: { location: { resource: "location", kind: "one", column: "location_id", references: "id" } },
});

export const INVENTORY_RESOURCES: readonly ResourceDef[] = [
  goodsTransferFormResource,
  goodsTransferFormLineResource,
  loanFormResource,
  loanFormLineResource,
  systemLocationResource,
];
