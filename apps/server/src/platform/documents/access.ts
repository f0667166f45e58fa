import { decide, type Requirement, resourceRequirement } from "@workmetrics/domain";
import { type DocumentType, ownOnlyMessage, ownsDocument } from "@workmetrics/domain/documents/machine";
import { type Caller, memberOf, refusalError } from "../rest/access.ts";
import { RestError } from "../rest/rest-error.ts";
import type { DocumentSpec } from "./registry.ts";
import type { Row } from "./store.ts";

// What a document command needs beyond its transitions (which ask decideTransition): the type's permission and tier
// feature, through the domain's one access rule, so the refusal reads as the web would show it. Reading a type that
// declares an owner is allowed to members who read only their own (scope "own"); a command on one document then
// checks that document with requireOwnDocument.
export const documentRequirement = (spec: DocumentSpec, action: string, does: string): Requirement =>
  action === "read"
    ? { ...resourceRequirement(spec.header, "read"), does } // exactly as /rest/v1 reads it (own rows included)
    : {
        audience: "member",
        permission: `${spec.machine.type}.${action}`,
        feature: spec.machine.feature,
        subject: spec.machine.plural,
        does,
      };

export function requireDocumentAccess(caller: Caller, spec: DocumentSpec, action: string, does: string): void {
  const d = decide(memberOf(caller), documentRequirement(spec, action, does));
  if (!d.allowed) throw refusalError(d);
}

export const mayDocument = (caller: Caller, spec: DocumentSpec, action: string): boolean =>
  decide(memberOf(caller), documentRequirement(spec, action, action)).allowed;

const machine = (spec: DocumentSpec) => spec.machine as unknown as DocumentType<string, never>;

// Whether the caller reads only their own documents of the type (issue 10 §3: a salesperson's quotations, a
// driver's delivery orders) — the same decision /rest/v1 reads with.
export function readsOwnOnly(caller: Caller, spec: DocumentSpec): boolean {
  const d = decide(memberOf(caller), documentRequirement(spec, "read", `read ${spec.machine.plural.toLowerCase()}`));
  return d.allowed && d.scope === "own";
}

export const ownRefusal = (spec: DocumentSpec, action: string) =>
  new RestError(403, "42501", ownOnlyMessage(machine(spec), action), null, null);

// The shared read check of a command on one document: a member who reads only their own documents of the type may
// read or act on this one only when it is theirs ("You can only send your own quotations"). `action`: a transition
// or a verb ("change", "read").
export function requireOwnDocument(caller: Caller, spec: DocumentSpec, header: Row, action: string, own = false): void {
  if (!own && !readsOwnOnly(caller, spec)) return;
  if (!ownsDocument(machine(spec), header, caller.userId)) throw ownRefusal(spec, action);
}
