import { company } from "../db/company-schema.ts";
import { contact, MEMO_AUDIENCES, memo, memoRead } from "../db/master-schema.ts";
import { CATALOG } from "./catalog.ts";
import { defineResource } from "./define.ts";
import { auditFields, f, idField } from "./fields.ts";

// Issue 5 item 5: companies (customers and/or suppliers; default company id 9 kept), contacts, memos.

export const companyResource = defineResource({
  ...CATALOG.company,
  table: company,
  display: "name",
  search: ["name", "uen", "email", "phone"],
  defaultOrder: "name.asc",
  fields: [
    idField(),
    f.name("name", "Name", { required: true, list: true, width: 260 }),
    f.code("uen", "UEN", { list: true, width: 120, format: "uen", help: "Singapore Unique Entity Number" }),
    f.boolean("is_customer", "Customer", { list: true, width: 100 }),
    f.boolean("is_supplier", "Supplier", { list: true, width: 100 }),
    f.email("email", "E-mail", { list: true }),
    f.phone("phone", "Phone", { list: true }),
    f.textarea("billing_address", "Billing address"),
    f.textarea("shipping_address", "Shipping address"),
    f.integer("payment_terms_days", "Payment terms (days)", { min: 0, max: 3650 }),
    f.money("credit_limit", "Credit limit", { min: 0 }),
    f.text("currency", "Currency", { width: 90 }),
    f.boolean("active", "Active", { width: 90 }),
    ...auditFields,
  ],
  relations: {
    contacts: { resource: "contact", kind: "many", column: "company_id", references: "id" },
    projects: { resource: "project", kind: "many", column: "company_id", references: "id" },
  },
});

export const contactResource = defineResource({
  ...CATALOG.contact,
  table: contact,
  display: "name",
  search: ["name", "email", "phone", "position"],
  defaultOrder: "name.asc",
  fields: [
    idField(),
    f.name("name", "Name", { required: true, list: true, width: 220 }),
    f.ref("company_id", "Company", "company", "name", { required: true, list: true }),
    f.email("email", "E-mail", { list: true }),
    f.phone("phone", "Phone", { list: true }),
    f.name("position", "Position", { list: true }),
    f.boolean("is_primary", "Primary contact"),
    f.textarea("notes", "Notes"),
    ...auditFields,
  ],
  relations: {
    company: { resource: "company", kind: "one", column: "company_id", references: "id" },
  },
});

export const memoResource = defineResource({
  ...CATALOG.memo,
  table: memo,
  display: "title",
  search: ["title", "body"],
  defaultOrder: "published_at.desc.nullsfirst",
  fields: [
    idField(),
    f.name("title", "Title", { required: true, list: true, width: 280 }),
    f.textarea("body", "Message", { required: true }),
    f.enum("audience", "Audience", MEMO_AUDIENCES, { list: true, help: "Everyone, or only the roles chosen below" }),
    f.tags("audience_role_ids", "For roles", { reference: { resource: "workspace_role", display: "title" } }),
    f.boolean("pinned", "Pinned", { list: true, width: 90 }),
    f.datetime("published_at", "Published", { list: true, help: "Leave empty to keep it a draft" }),
    f.ref("author_id", "Author", "user", "name", { readOnly: true, form: false, list: true }),
    ...auditFields,
  ],
  relations: {
    author: { resource: "user", kind: "one", column: "author_id", references: "id" },
    memo_read: { resource: "memo_read", kind: "many", column: "memo_id", references: "id" },
  },
});

// Read receipts; written by the memo_mark_read command, read by whoever may read memos.
export const memoReadResource = defineResource({
  ...CATALOG.memo_read,
  table: memoRead,
  display: "read_at",
  search: [],
  defaultOrder: "read_at.desc",
  fields: [
    f.ref("memo_id", "Memo", "memo", "title", { readOnly: true, list: true }),
    f.ref("user_id", "Reader", "user", "name", { readOnly: true, list: true }),
    f.datetime("read_at", "Read", { readOnly: true, list: true }),
  ],
  relations: {
    memo: { resource: "memo", kind: "one", column: "memo_id", references: "id" },
    user: { resource: "user", kind: "one", column: "user_id", references: "id" },
  },
});
