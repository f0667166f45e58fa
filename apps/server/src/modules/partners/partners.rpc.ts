import { z } from "zod";
import { RestError } from "../../platform/rest/rest-error.ts";
import { defineRpc } from "../../platform/rest/rpc/command.ts";
import {
  Answer,
  answerForm,
  LINK_DAYS,
  need,
  revokeForm,
  SaveArgs,
  saveForm,
  sendForm,
} from "./discount-form.store.ts";
import { supplierFormIds, viewForms } from "./discount-form.view.ts";
import { ApproveArgs, approveRegistration, RejectArgs, rejectRegistration } from "./registration.store.ts";

// Issue 11: the partners' commands (DESIGN §2.1 /rest/v1/rpc), each in the request's one transaction. The forms and
// registrations are read through /rest/v1; these are their only writes.

const id = z.number().int().positive();

export const discountFormSave = defineRpc({
  name: "supplier_discount_form_save",
  args: SaveArgs,
  permission: null, // create or update, decided inside by whether an id is given
  feature: "supplier_discount",
  run: (tx, args, caller) => saveForm(tx, caller, args),
});

export const discountFormSend = defineRpc({
  name: "supplier_discount_form_send",
  args: z.object({ id, link_days: z.number().int().min(1).max(LINK_DAYS.max).optional() }),
  permission: "supplier_discount_form.update",
  does: "send supplier discount forms",
  feature: "supplier_discount",
  run: (tx, args, caller) => sendForm(tx, caller, args),
});

export const discountFormRevoke = defineRpc({
  name: "supplier_discount_form_revoke",
  args: z.object({ id }),
  permission: "supplier_discount_form.update",
  does: "revoke supplier discount forms",
  feature: "supplier_discount",
  run: (tx, args, caller) => revokeForm(tx, caller, args.id),
});

// A supplier user, signed in: the forms addressed to their company, and their answer to one of them.
export const discountFormsMine = defineRpc({
  name: "supplier_discount_forms_mine",
  args: z.object({}).optional(),
  permission: "supplier_discount_form.respond",
  does: "answer supplier discount forms",
  feature: "supplier_discount",
  run: async (tx, _args, caller) => viewForms(tx, caller.workspaceId as string, await supplierFormIds(tx, caller)),
});

export const discountFormRespond = defineRpc({
  name: "supplier_discount_form_respond",
  args: Answer.extend({ id }),
  permission: "supplier_discount_form.respond",
  does: "answer supplier discount forms",
  feature: "supplier_discount",
  run: async (tx, args, caller) => {
    need(caller, "supplier_discount_form.respond", "answer supplier discount forms");
    const [mine] = await supplierFormIds(tx, caller, args.id);
    if (!mine) throw notYours(args.id);
    const [form] = await viewForms(tx, caller.workspaceId as string, [mine]);
    await answerForm(tx, caller, mine, args, form.workspace.name);
    return (await viewForms(tx, caller.workspaceId as string, [mine]))[0];
  },
});

const notYours = (formId: number) =>
  new RestError(404, "PGRST116", `There is no supplier discount form ${formId} addressed to your company`);

export const registrationApprove = defineRpc({
  name: "project_registration_approve",
  args: ApproveArgs,
  permission: "project_registration.update",
  does: "approve project registrations",
  feature: "projects",
  run: (tx, args, caller) => approveRegistration(tx, caller, args),
});

export const registrationReject = defineRpc({
  name: "project_registration_reject",
  args: RejectArgs,
  permission: "project_registration.update",
  does: "reject project registrations",
  feature: "projects",
  run: (tx, args, caller) => rejectRegistration(tx, caller, args),
});
