import {
  currencyFactor,
  PROJECT_STATUSES,
  project,
  projectBrand,
  projectCurrency,
  projectGroup,
} from "../db/master-schema.ts";
import { CATALOG } from "./catalog.ts";
import { defineResource } from "./define.ts";
import { auditFields, f, idField } from "./fields.ts";

// Issue 5 item 5: projects with project-brands, project-currencies, currency-factors and project-groups (Pro tier).

export const projectResource = defineResource({
  ...CATALOG.project,
  table: project,
  naturalKey: "code",
  display: "name",
  search: ["code", "name", "description"],
  defaultOrder: "code.desc",
  fields: [
    idField(),
    f.code("code", "Code", { required: true, list: true, width: 120 }),
    f.name("name", "Name", { required: true, list: true, width: 260 }),
    f.ref("company_id", "Customer", "company", "name", { list: true }),
    f.ref("project_group_id", "Group", "project_group", "name"),
    f.status("status", "Status", PROJECT_STATUSES, { list: true, width: 120 }),
    f.date("start_date", "Start", { list: true }),
    f.date("end_date", "End", { list: true }),
    f.money("budget", "Budget", { list: true, min: 0 }),
    f.textarea("description", "Description"),
    // Issue 12: when the retention held on its progressive claims is released.
    f.date("practical_completion_date", "Practical completion"),
    f.date("defects_liability_end_date", "Defects liability ends"),
    f.percent("retention_release_percent", "Retention released at completion %", { min: 0, max: 100 }),
    ...auditFields,
  ],
  relations: {
    company: { resource: "company", kind: "one", column: "company_id", references: "id" },
    project_group: { resource: "project_group", kind: "one", column: "project_group_id", references: "id" },
    project_brand: { resource: "project_brand", kind: "many", column: "project_id", references: "id" },
    project_currency: { resource: "project_currency", kind: "many", column: "project_id", references: "id" },
    currency_factor: { resource: "currency_factor", kind: "many", column: "project_id", references: "id" },
  },
  rules: [
    {
      fields: ["start_date", "end_date"],
      // Days as YYYY-MM-DD compare as text.
      check: (v) => String(v.end_date) >= String(v.start_date),
      field: "end_date",
      message: "End must be on or after Start",
      constraint: "project_dates_in_order",
    },
    {
      fields: ["practical_completion_date", "defects_liability_end_date"],
      check: (v) => String(v.defects_liability_end_date) >= String(v.practical_completion_date),
      field: "defects_liability_end_date",
      message: "The defects liability period ends on or after practical completion",
    },
  ],
});

export const projectGroupResource = defineResource({
  ...CATALOG.project_group,
  table: projectGroup,
  naturalKey: "name",
  display: "name",
  search: ["name", "description"],
  defaultOrder: "name.asc",
  fields: [
    idField(),
    f.name("name", "Name", { required: true, list: true, width: 240 }),
    f.textarea("description", "Description", { list: true }),
    ...auditFields,
  ],
  relations: {
    projects: { resource: "project", kind: "many", column: "project_group_id", references: "id" },
  },
});

export const projectBrandResource = defineResource({
  ...CATALOG.project_brand,
  table: projectBrand,
  display: "id",
  search: ["notes"],
  defaultOrder: "project_id.desc",
  fields: [
    idField(),
    f.ref("project_id", "Project", "project", "name", { required: true, list: true }),
    f.ref("brand_id", "Brand", "brand", "name", { required: true, list: true }),
    f.percent("discount_percent", "Discount %", { list: true, min: 0, max: 100 }),
    f.textarea("notes", "Notes", { list: true }),
    ...auditFields,
  ],
  relations: {
    project: { resource: "project", kind: "one", column: "project_id", references: "id" },
    brand: { resource: "brand", kind: "one", column: "brand_id", references: "id" },
  },
  checks: {
    project_brand_discount_range: { field: "discount_percent", message: "Discount % must be between 0 and 100" },
  },
});

export const projectCurrencyResource = defineResource({
  ...CATALOG.project_currency,
  table: projectCurrency,
  display: "currency",
  search: ["currency"],
  defaultOrder: "project_id.desc",
  fields: [
    idField(),
    f.ref("project_id", "Project", "project", "name", { required: true, list: true }),
    f.text("currency", "Currency", { required: true, list: true, width: 100 }),
    f.boolean("is_default", "Default", { list: true, width: 90 }),
    ...auditFields,
  ],
  relations: {
    project: { resource: "project", kind: "one", column: "project_id", references: "id" },
  },
});

export const currencyFactorResource = defineResource({
  ...CATALOG.currency_factor,
  table: currencyFactor,
  display: "currency",
  search: ["currency"],
  defaultOrder: "effective_date.desc",
  fields: [
    idField(),
    f.ref("project_id", "Project", "project", "name", { required: true, list: true }),
    f.text("currency", "Currency", { required: true, list: true, width: 100 }),
    f.number("factor", "Rate to base currency", {
      required: true,
      list: true,
      help: "1 unit of the currency in the workspace's base currency",
    }),
    f.date("effective_date", "Effective", { list: true }),
    f.boolean("locked", "Locked", { list: true, width: 90 }),
    ...auditFields,
  ],
  relations: {
    project: { resource: "project", kind: "one", column: "project_id", references: "id" },
  },
  rules: [
    {
      fields: ["factor"],
      check: (v) => Number(v.factor) > 0,
      field: "factor",
      message: "Rate to base currency must be more than 0",
      constraint: "currency_factor_positive",
    },
  ],
});
