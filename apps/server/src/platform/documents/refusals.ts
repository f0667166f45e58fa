import type { TransitionRefusal } from "@workmetrics/domain/documents/machine";
import { refusalError } from "../rest/access.ts";
import { RestError } from "../rest/rest-error.ts";
import type { DocumentSpec } from "./registry.ts";

// DESIGN §2.3.1 "Refusals": 4xx in the PostgREST error shape with the clerk's message, never a 500. P0001 is what
// PostgREST answers for an exception a function raises.

export const title = (spec: DocumentSpec) => spec.machine.title.toLowerCase();

export const notFound = (spec: DocumentSpec, id: number) =>
  new RestError(404, "PGRST116", `There is no ${title(spec)} ${id} in this workspace`);

// The state of the document does not allow it (409), or the request lacks something the clerk must give (422).
export const conflict = (message: string, details: unknown = null) => new RestError(409, "P0001", message, details);
export const invalid = (message: string, field?: string) =>
  new RestError(422, "P0001", message, field ? [{ field, message }] : null);

export function transitionRefusal(d: TransitionRefusal): RestError {
  switch (d.reason) {
    case "unknown_action":
      return new RestError(400, "P0001", d.message);
    case "status":
    case "guard":
      return conflict(d.message, { reason: d.reason });
    case "needs_reason":
      return invalid(d.message, "reason");
    case "needs_input":
      return invalid(d.message, `values.${d.field}`);
    default:
      return refusalError(d);
  }
}
