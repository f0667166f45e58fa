import { decide, type Requirement } from "@workmetrics/domain";
import { type Caller, memberOf, refusalError } from "../rest/access.ts";
import type { DocumentSpec } from "./registry.ts";

// What a document command needs beyond its transitions (which ask decideTransition): the type's permission and tier
// feature, through the domain's one access rule, so the refusal reads as the web would show it.
export const documentRequirement = (spec: DocumentSpec, action: string, does: string): Requirement => ({
  audience: "member",
  permission: `${spec.machine.type}.${action}`,
  feature: spec.machine.feature,
  subject: spec.machine.plural,
  does,
});

export function requireDocumentAccess(caller: Caller, spec: DocumentSpec, action: string, does: string): void {
  const d = decide(memberOf(caller), documentRequirement(spec, action, does));
  if (!d.allowed) throw refusalError(d);
}

export const mayDocument = (caller: Caller, spec: DocumentSpec, action: string): boolean =>
  decide(memberOf(caller), documentRequirement(spec, action, action)).allowed;
