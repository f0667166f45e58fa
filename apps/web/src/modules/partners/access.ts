import { type Decision, decide, listDecision, type Member, type Requirement } from "@workmetrics/domain";
import { CATALOG } from "@workmetrics/domain/resources/catalog";

// Issue 11: what the partners pages offer, by the domain's one access rule and the permissions the server's commands
// check (supplier_discount_form_*, project_registration_*).

const discount = (action: string, does: string): Requirement => ({
  audience: "member",
  permission: `supplier_discount_form.${action}`,
  feature: "supplier_discount",
  does,
  subject: "Supplier discount forms",
});

export const DISCOUNT_NEEDS = {
  create: discount("create", "create supplier discount forms"),
  update: discount("update", "change, send or revoke supplier discount forms"),
  respond: discount("respond", "answer supplier discount forms"),
} as const;

export const REGISTRATION_DECIDE: Requirement = {
  audience: "member",
  permission: "project_registration.update",
  feature: "projects",
  does: "approve or reject project registrations",
  subject: "Project registrations",
};

// Staff who read the forms see them all; a supplier user sees the ones addressed to their company.
export function discountFormsAccess(who: Member): Decision {
  const staff = listDecision(who, CATALOG.supplier_discount_form);
  if (staff.allowed || staff.reason === "tier") return staff;
  const supplier = decide(who, DISCOUNT_NEEDS.respond);
  return supplier.allowed ? supplier : staff;
}
