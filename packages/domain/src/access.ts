import { can } from "./permissions.ts";
import { FEATURES, type Feature, lowestTierWith, type TierSlug } from "./tiers.ts";

// Issue 9: the one rule "may this user do this here". The REST engine, RPC commands, storage and module routes
// map a refusal to their errors; the web uses the same answer to decide what to offer. Pure: no I/O.

// Who asks. A member's permissions are the effective set (workspace role, or the system role's defaults).
export type Member =
  | { kind: "anon" }
  | { kind: "operator" }
  | { kind: "member"; permissions: readonly string[]; features: readonly string[] };

export const ANONYMOUS: Member = { kind: "anon" };

// What one action needs. `audience` says who may ever do it; members also need `permission` and `feature`.
export type Requirement = {
  does: string; // the action in words after "You do not have permission to …": "change products"
  audience: "public" | "signed_in" | "member" | "operator" | "member_or_operator";
  permission?: string | null; // `<resource>.<action>`; null or absent: any member
  feature?: Feature; // the tier feature a member's workspace needs
  subject?: string; // what the tier message names: "Products need the Pro tier"
  offered?: string | null; // a message when the action does not exist at all ("Users cannot be created …")
  own?: boolean; // members lacking the permission still act on the rows they own (scope "own")
  // …only those holding some other permission of this resource ("quotation": a salesperson who creates quotations
  // reads their own; a driver, who holds none, is refused).
  ownWith?: string;
};

export type Refusal =
  | { reason: "not_offered"; message: string }
  | { reason: "sign_in"; message: string }
  | { reason: "platform_only"; message: string }
  | { reason: "workspace_only"; message: string }
  | { reason: "tier"; message: string; feature: Feature; tier: TierSlug; tierTitle: string }
  | { reason: "permission"; message: string; permission: string };

export type Decision = { allowed: true; scope: "all" | "own" } | ({ allowed: false } & Refusal);

export const SIGN_IN_MESSAGE = "Sign in to use this";

export function decide(who: Member, need: Requirement): Decision {
  if (need.offered) return { allowed: false, reason: "not_offered", message: need.offered };
  const ok: Decision = { allowed: true, scope: "all" };
  if (need.audience === "public") return ok;
  if (who.kind === "anon") return { allowed: false, reason: "sign_in", message: SIGN_IN_MESSAGE };
  if (need.audience === "signed_in") return ok;
  if (who.kind === "operator") {
    if (need.audience === "operator" || need.audience === "member_or_operator") return ok;
    return {
      allowed: false,
      reason: "workspace_only",
      message: "This belongs to a workspace; platform operators do not work inside one",
    };
  }
  if (need.audience === "operator") {
    return { allowed: false, reason: "platform_only", message: "Only platform operators may do this" };
  }
  // The role first, then the plan: a member whose role could never do this is told so, not offered an upgrade that
  // would not let them either (a Lite workspace's warehouse staff and the financial reports).
  let scope: "all" | "own" = "all";
  if (need.permission && !can(who.permissions, need.permission)) {
    if (!(need.own && (!need.ownWith || holdsAny(who.permissions, need.ownWith)))) {
      return {
        allowed: false,
        reason: "permission",
        message: `You do not have permission to ${need.does}`,
        permission: need.permission,
      };
    }
    scope = "own";
  }
  if (need.feature && !who.features.includes(need.feature)) {
    const tier = lowestTierWith(need.feature);
    const subject = need.subject ?? FEATURES[need.feature];
    return {
      allowed: false,
      reason: "tier",
      message: `${subject} need${subject.endsWith("s") ? "" : "s"} the ${tier.title} tier. Upgrade to ${tier.title} to use ${FEATURES[need.feature].toLowerCase()}.`,
      feature: need.feature,
      tier: tier.slug,
      tierTitle: tier.title,
    };
  }
  return { allowed: true, scope };
}

export const allowed = (who: Member, need: Requirement): boolean => decide(who, need).allowed;

// Whether a member holds any permission of `resource` (a wildcard action or a named one).
const holdsAny = (granted: readonly string[], resource: string): boolean =>
  granted.some((p) => !p.startsWith("!") && p.split(".")[0] === resource);

// ---- resources -------------------------------------------------------------------------------------------------

export type ResourceAction = "read" | "create" | "update" | "delete";

// The part of a resource definition (resources/types.ts) that access reads.
export type AccessDef = {
  name: string;
  plural: string;
  scope: "tenant" | "platform" | "public";
  feature?: Feature;
  featureActions?: readonly ResourceAction[];
  actions?: readonly ResourceAction[];
  writers?: "workspace" | "platform";
  workspaceColumn?: string;
  ownerColumn?: string;
  ownerParent?: { table: string; column: string };
  ownerHolds?: boolean; // own rows only for members holding another permission of the resource (Requirement.ownWith)
  permissionOf?: string; // the resource whose permissions it follows: a document's lines follow the document
  // Issue 23, the marketplace (DESIGN §2.2: the one place rows cross workspaces): "published" rows are read by every
  // workspace while `published`; "parties" rows by the buyer's and the seller's workspace (buyer_workspace_id,
  // seller_workspace_id). Row-level security holds the same (marketplace-schema.ts).
  shared?: "published" | "parties";
};

const VERB: Record<ResourceAction, string> = { read: "read", create: "create", update: "change", delete: "delete" };

// What `action` on a resource needs: the actions it offers, who writes it, the tier and the role's permission.
export function resourceRequirement(def: AccessDef, action: ResourceAction): Requirement {
  const noun = def.plural.toLowerCase();
  const permission = `${def.permissionOf ?? def.name}.${action}`;
  const base = { does: `${VERB[action]} ${noun}`, permission, subject: def.plural };
  const offered = (def.actions ?? ["read", "create", "update", "delete"]).includes(action)
    ? null
    : `${def.plural} cannot be ${VERB[action]}d through this API`;
  if (def.scope === "public" && action === "read") return { ...base, audience: "public", offered };
  if (def.scope !== "tenant") {
    // A platform row that belongs to a workspace (workspace.id): members read their own and change it by permission.
    if (def.workspaceColumn && action === "read") {
      return { ...base, audience: "member_or_operator", permission: null, offered };
    }
    if (def.workspaceColumn && action === "update") return { ...base, audience: "member_or_operator", offered };
    return { ...base, audience: "operator", offered };
  }
  const gated = def.featureActions ?? ["read", "create", "update", "delete"];
  const feature = def.feature && gated.includes(action) ? def.feature : undefined;
  if (def.writers === "platform") {
    return action === "read"
      ? { ...base, audience: "member_or_operator", feature, offered }
      : { ...base, audience: "operator", offered };
  }
  const own = action === "read" && Boolean(def.ownerColumn);
  const ownWith = own && def.ownerHolds ? (def.permissionOf ?? def.name) : undefined;
  return { ...base, audience: "member", feature, offered, own, ...(ownWith ? { ownWith } : {}) };
}

export const decideResource = (who: Member, def: AccessDef, action: ResourceAction): Decision =>
  decide(who, resourceRequirement(def, action));

// A page lists a resource for someone who reads all its rows, or who reads their own and may add to them
// (feedback), or works on their own by another permission (a driver completing deliveries): a Users page showing
// only yourself is not offered.
export function listDecision(who: Member, def: AccessDef): Decision {
  const read = decideResource(who, def, "read");
  // …or whose own rows come from holding another permission of it (a driver's assigned delivery orders).
  if (!read.allowed || read.scope === "all" || def.ownerHolds || decideResource(who, def, "create").allowed)
    return read;
  return {
    allowed: false,
    reason: "permission",
    message: `You do not have permission to read ${def.plural.toLowerCase()}`,
    permission: `${def.permissionOf ?? def.name}.read`,
  };
}

export const offersList = (who: Member, def: AccessDef): boolean => listDecision(who, def).allowed;

// A field read by a permission of its own (FieldDef.permission: a product's cost): what reading it needs, or null.
export const fieldRequirement = (
  def: Pick<AccessDef, "plural">,
  field: { label: string; permission?: string },
): Requirement | null =>
  field.permission
    ? {
        audience: "member",
        permission: field.permission,
        does: `read the ${field.label.toLowerCase()} of ${def.plural.toLowerCase()}`,
      }
    : null;

// ---- module pages and commands ---------------------------------------------------------------------------------

// A command (/rest/v1/rpc) or module page: a permission and tier feature for members.
export const memberRequirement = (permission: string | null, does: string, feature?: Feature): Requirement => ({
  audience: "member",
  permission,
  does,
  feature,
});
