import { z } from "zod";
import type { discountFormView } from "../commands/partners.ts";
import {
  DISCOUNT_KINDS,
  PROJECT_REGISTRATION_STATUSES,
  projectRegistration,
  SUPPLIER_DISCOUNT_STATUSES,
  supplierDiscountForm,
  supplierDiscountFormItem,
} from "../db/partners-schema.ts";
import { CATALOG } from "./catalog.ts";
import { defineResource } from "./define.ts";
import { auditFields, f, idField } from "./fields.ts";
import type { ResourceDef } from "./types.ts";

// Issue 11: supplier discount forms and project registrations, each answered on a public page. Both are written
// by the partners module's commands only (REST reads them); the fields below are what the pages show and what the
// commands validate with (the insert schemas, never re-declared).

const ro = { readOnly: true, form: false };

export const supplierDiscountFormResource = defineResource({
  ...CATALOG.supplier_discount_form,
  table: supplierDiscountForm,
  display: "id",
  search: ["contact_email", "message", "responder_name"],
  defaultOrder: "id.desc",
  fields: [
    idField(),
    f.status("status", "Status", SUPPLIER_DISCOUNT_STATUSES, { list: true, width: 110, readOnly: true, form: false }),
    f.ref("company_id", "Supplier", "company", "name", { required: true, list: true, width: 220 }),
    f.email("contact_email", "Supplier e-mail", { required: true, list: true }),
    f.ref("category_id", "Category", "category", "name", { help: "Every product of the category" }),
    f.enum("discount_kind", "Discount as", DISCOUNT_KINDS, { required: true }),
    f.percent("discount_percent", "Discount %", { list: true, width: 100, min: 0, max: 100 }),
    f.number("min_qty", "Minimum qty", { min: 0, list: true, width: 120 }),
    f.date("valid_from", "Valid from", { required: true, list: true }),
    f.date("valid_to", "Valid to", { required: true, list: true }),
    f.textarea("message", "Message to the supplier", { maxLength: 2000 }),
    f.datetime("sent_at", "Sent", ro),
    f.datetime("link_expires_at", "Link expires", ro),
    f.datetime("responded_at", "Answered", ro),
    f.name("responder_name", "Answered by", ro),
    f.textarea("responder_note", "Supplier's note", ro),
    ...auditFields,
  ],
  relations: {
    company: { resource: "company", kind: "one", column: "company_id", references: "id" },
    category: { resource: "category", kind: "one", column: "category_id", references: "id" },
    items: {
      resource: "supplier_discount_form_item",
      kind: "many",
      column: "supplier_discount_form_id",
      references: "id",
    },
  },
  rules: [
    {
      fields: ["valid_from", "valid_to"],
      check: (v) => String(v.valid_to) >= String(v.valid_from), // days as YYYY-MM-DD compare as text
      field: "valid_to",
      message: "Valid to must be on or after Valid from",
      constraint: "supplier_discount_form_dates_in_order",
    },
  ],
  checks: {
    supplier_discount_form_min_qty_positive: { field: "min_qty", message: "The minimum quantity must be more than 0" },
    supplier_discount_form_percent_range: {
      field: "discount_percent",
      message: "The discount must be more than 0% and at most 100%",
    },
  },
});

export const supplierDiscountFormItemResource = defineResource({
  ...CATALOG.supplier_discount_form_item,
  table: supplierDiscountFormItem,
  display: "product_id",
  search: [],
  defaultOrder: "supplier_discount_form_id.asc,sort_order.asc,id.asc",
  keptCount: false,
  fields: [
    idField(),
    f.ref("supplier_discount_form_id", "Discount form", "supplier_discount_form", "id", { required: true }),
    f.ref("product_id", "Product", "product", "name", { required: true, list: true }),
    f.money("price", "Price", { min: 0, list: true }),
    f.integer("sort_order", "Order on the form"),
    ...auditFields,
  ],
  relations: {
    supplier_discount_form: {
      resource: "supplier_discount_form",
      kind: "one",
      column: "supplier_discount_form_id",
      references: "id",
    },
    product: { resource: "product", kind: "one", column: "product_id", references: "id" },
  },
  checks: {
    supplier_discount_form_item_price_not_negative: { field: "price", message: "The price cannot be less than 0" },
    supplier_discount_form_item_product_key: { field: "product_id", message: "This product is already on the form" },
  },
});

export const projectRegistrationResource = defineResource({
  ...CATALOG.project_registration,
  table: projectRegistration,
  display: "project_name",
  search: ["end_customer", "project_name", "contact_name", "contact_company", "contact_email", "site"],
  defaultOrder: "id.desc",
  fields: [
    idField(),
    f.status("status", "Status", PROJECT_REGISTRATION_STATUSES, { list: true, width: 110, ...ro }),
    f.name("end_customer", "End customer", { required: true, list: true, width: 180 }),
    f.name("project_name", "Project", { required: true, list: true, width: 180 }),
    // Shown as the earlier registration's number (its names are the same, case and spaces aside).
    f.ref("duplicate_of_id", "Duplicate of", "project_registration", "id", {
      list: true,
      width: 170,
      ...ro,
    }),
    f.text("site", "Site", { maxLength: 500 }),
    f.money("expected_value", "Expected value", { min: 0, list: true }),
    f.textarea("products_of_interest", "Products of interest", { maxLength: 2000 }),
    f.date("expected_close_date", "Expected close"),
    f.name("contact_name", "Contact", { required: true, list: true }),
    f.name("contact_company", "Reseller / company"),
    f.email("contact_email", "Contact e-mail", { required: true }),
    f.phone("contact_phone", "Contact phone"),
    f.textarea("note", "Note", { maxLength: 2000 }),
    f.ref("company_id", "Company", "company", "name", ro),
    f.ref("project_id", "Project made", "project", "name", ro),
    f.datetime("decided_at", "Decided", ro),
    f.textarea("reject_reason", "Reason rejected", ro),
    { name: "created_at", label: "Received", kind: "datetime", readOnly: true, form: false },
    auditFields[1],
  ],
  relations: {
    duplicate_of: { resource: "project_registration", kind: "one", column: "duplicate_of_id", references: "id" },
    company: { resource: "company", kind: "one", column: "company_id", references: "id" },
    project: { resource: "project", kind: "one", column: "project_id", references: "id" },
  },
  checks: {
    project_registration_value_not_negative: {
      field: "expected_value",
      message: "The expected value cannot be less than 0",
    },
  },
});

// A supplier's answer to a discount request, on the public page or signed in (one schema for the page and server).
export const DiscountAnswer = z.object({
  decision: z.enum(["confirm", "reject"], { error: "Choose Confirm or Reject" }),
  name: z.string({ error: "Enter your name" }).trim().min(1, "Enter your name").max(200, "At most 200 characters"),
  note: z.string().trim().max(2000, "At most 2000 characters").nullish(),
});
export type DiscountAnswerInput = z.infer<typeof DiscountAnswer>;

// What the supplier is shown of a request (GET /api/public/supplier-discount-forms/:token; a supplier user's list).
export type PublicDiscountForm = Omit<z.output<typeof discountFormView>, "id">; // declared with the commands

export const PARTNERS_RESOURCES: readonly ResourceDef[] = [
  supplierDiscountFormResource,
  supplierDiscountFormItemResource,
  projectRegistrationResource,
];
