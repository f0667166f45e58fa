import { COMMANDS } from "@workmetrics/domain/commands";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { answerForm, need, revokeForm, saveForm, sendForm } from "./discount-form.store.ts";
import { supplierFormIds, viewForms } from "./discount-form.view.ts";
import { approveRegistration, rejectRegistration } from "./registration.store.ts";

// Issue 11: the partners' commands (DESIGN §2.1 /rest/v1/rpc), each in the request's one transaction. The forms and
// registrations are read through /rest/v1; these are their only writes.

export const discountFormSave = implement(COMMANDS.supplier_discount_form_save, {
  run: (tx, args, caller) => saveForm(tx, caller, args),
});

export const discountFormSend = implement(COMMANDS.supplier_discount_form_send, {
  run: (tx, args, caller, deps) => sendForm(tx, caller, args, deps),
});

export const discountFormRevoke = implement(COMMANDS.supplier_discount_form_revoke, {
  run: (tx, args, caller) => revokeForm(tx, caller, args.id),
});

// A supplier user, signed in: the forms addressed to their company, and their answer to one of them.
export const discountFormsMine = implement(COMMANDS.supplier_discount_forms_mine, {
  run: async (tx, _args, caller) => viewForms(tx, caller.workspaceId as string, await supplierFormIds(tx, caller)),
});

export const discountFormRespond = implement(COMMANDS.supplier_discount_form_respond, {
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

export const registrationApprove = implement(COMMANDS.project_registration_approve, {
  run: (tx, args, caller, deps) => approveRegistration(tx, caller, args, deps),
});

export const registrationReject = implement(COMMANDS.project_registration_reject, {
  run: (tx, args, caller, deps) => rejectRegistration(tx, caller, args, deps),
});
