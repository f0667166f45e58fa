import { z } from "zod";
import { DiscountAnswer } from "../resources/partners.ts";
import { decimal, defineCommand, id, instant } from "./define.ts";

// Issue 11: the partners' commands (modules/partners on the server). The forms and registrations are read through
// /rest/v1; these are their only writes, and a supplier user's own list.

const row = z.record(z.string(), z.unknown());

// How long a discount form's link works, in days.
export const DISCOUNT_LINK_DAYS = { default: 14, max: 90 } as const;

// What the supplier is shown of a request (also the public page's answer).
export const discountFormView = z.object({
  id: z.number(),
  workspace: z.object({
    name: z.string(),
    logo: z.string().nullable(),
    primary_color: z.string().nullable(),
    currency: z.string(),
  }),
  supplier: z.string(),
  status: z.string(),
  discount_kind: z.enum(["percent", "price"]),
  discount_percent: decimal.nullable(),
  min_qty: decimal,
  valid_from: z.string(),
  valid_to: z.string(),
  message: z.string().nullable(),
  category: z.string().nullable(),
  products: z.array(
    z.object({
      product_id: z.number(),
      name: z.string(),
      sku: z.string().nullable(),
      unit: z.string().nullable(),
      price: decimal.nullable(),
    }),
  ),
  link_expires_at: z.string().nullable(),
  responded_at: z.string().nullable(),
  responder_name: z.string().nullable(),
  responder_note: z.string().nullable(),
});

export const supplierDiscountFormSave = defineCommand({
  name: "supplier_discount_form_save",
  args: z.object({ id: id.optional(), form: row, items: z.array(row).max(500) }),
  result: z.object({ id: z.number(), status: z.string() }),
  permission: null, // create or update, decided inside by whether an id is given
  feature: "supplier_discount",
});

export const supplierDiscountFormSend = defineCommand({
  name: "supplier_discount_form_send",
  args: z.object({ id, link_days: z.number().int().min(1).max(DISCOUNT_LINK_DAYS.max).optional() }),
  // The link is shown once, to the sender.
  result: z.object({ id: z.number(), status: z.string(), link: z.string(), link_expires_at: instant }),
  permission: "supplier_discount_form.update",
  does: "send supplier discount forms",
  feature: "supplier_discount",
});

export const supplierDiscountFormRevoke = defineCommand({
  name: "supplier_discount_form_revoke",
  args: z.object({ id }),
  result: z.object({ id: z.number(), status: z.string() }),
  permission: "supplier_discount_form.update",
  does: "revoke supplier discount forms",
  feature: "supplier_discount",
});

// A supplier user, signed in: the forms addressed to their company, and their answer to one of them.
export const supplierDiscountFormsMine = defineCommand({
  name: "supplier_discount_forms_mine",
  args: z.object({}).optional(),
  result: z.array(discountFormView),
  permission: "supplier_discount_form.respond",
  does: "answer supplier discount forms",
  feature: "supplier_discount",
});

export const supplierDiscountFormRespond = defineCommand({
  name: "supplier_discount_form_respond",
  args: DiscountAnswer.extend({ id }),
  result: discountFormView,
  permission: "supplier_discount_form.respond",
  does: "answer supplier discount forms",
  feature: "supplier_discount",
});

export const projectRegistrationApprove = defineCommand({
  name: "project_registration_approve",
  args: z.object({
    id,
    company_id: id.nullish(), // link this company; none: the end customer's by name, or new
    code: z.string().trim().min(1).max(64).nullish(), // the project's code; default REG-<id>
  }),
  result: z.object({
    id: z.number(),
    status: z.string(),
    company_id: z.number(),
    project_id: z.number(),
    code: z.string(),
  }),
  permission: "project_registration.update",
  does: "approve project registrations",
  feature: "projects",
});

export const projectRegistrationReject = defineCommand({
  name: "project_registration_reject",
  args: z.object({
    id,
    reason: z
      .string({ error: "Give a reason to reject the registration" })
      .trim()
      .min(1, "Give a reason to reject the registration")
      .max(2000, "At most 2000 characters"),
  }),
  result: z.object({ id: z.number(), status: z.string() }),
  permission: "project_registration.update",
  does: "reject project registrations",
  feature: "projects",
});

export const PARTNERS_COMMANDS = [
  supplierDiscountFormSave,
  supplierDiscountFormSend,
  supplierDiscountFormRevoke,
  supplierDiscountFormsMine,
  supplierDiscountFormRespond,
  projectRegistrationApprove,
  projectRegistrationReject,
] as const;
