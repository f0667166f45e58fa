import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import {
  discountFormRespond,
  discountFormRevoke,
  discountFormSave,
  discountFormSend,
  discountFormsMine,
  registrationApprove,
  registrationReject,
} from "./partners.rpc.ts";

// Issue 11: supplier discount forms and project registrations, each answered on a public page without an account
// (public-partners.route.ts). Neither is a priced document (no lines to total, no number, no postings), so they are
// plain resources written by these commands, with their status changes in the documents' audit history.
export function registerPartners(): void {
  registerRpc(
    discountFormSave,
    discountFormSend,
    discountFormRevoke,
    discountFormsMine,
    discountFormRespond,
    registrationApprove,
    registrationReject,
  );
}
