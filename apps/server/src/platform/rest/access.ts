import { can, DEFAULT_ROLE_PERMISSIONS, FEATURES, type Feature, lowestTierWith } from "@workmetrics/domain";
import type { ResourceAction, ResourceDef } from "@workmetrics/domain/resources";
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../db/database.ts";
import { COUNTED_TABLES, countedRows } from "../db/row-counts.ts";
import { RestError } from "./rest-error.ts";
import { ident } from "./sql-compile.ts";

// Who is asking and what they may do (issue 4 items 1, 5, 7): permissions `<resource>.<action>` from the user's
// workspace role (read on every request, so a change applies to the next one), tier features, platform operators.

export type Caller = {
  kind: "anon" | "member" | "operator";
  userId: string | null;
  workspaceId: string | null; // the workspace this request runs in: app.workspace_id, RLS and the engine's filter
  permissions: readonly string[];
  features: readonly string[];
  isOperator: boolean;
};

export const ANON: Caller = {
  kind: "anon",
  userId: null,
  workspaceId: null,
  permissions: [],
  features: [],
  isOperator: false,
};

const VERB: Record<ResourceAction, string> = { read: "read", create: "create", update: "change", delete: "delete" };

export const unauthenticated = () =>
  new RestError(401, "42501", "Sign in to use this", null, "Send the session's access token as a Bearer token");

const denied = (def: ResourceDef, action: ResourceAction) =>
  new RestError(
    403,
    "42501",
    `You do not have permission to ${VERB[action]} ${def.plural.toLowerCase()}`,
    `Needs the permission ${def.name}.${action}`,
    null,
  );

// The member's permissions and tier, read inside the request's transaction (as the request role, so RLS applies).
export async function loadMember(
  tx: Tx,
  userId: string,
  workspaceId: string,
): Promise<Pick<Caller, "permissions" | "features">> {
  const res = await tx.execute(sql`
    select u.active, u.role_id, wr.permissions, t.features, w.suspended_at is not null as suspended
    from "user" u
    join workspace w on w.id = u.workspace_id
    join tier t on t.id = w.tier_id
    left join workspace_role wr on wr.workspace_id = u.workspace_id and wr.id = u.workspace_role_id
    where u.workspace_id = ${workspaceId} and u.id = ${userId}`);
  const row = res.rows[0] as
    | { active: boolean; role_id: number; permissions: string[] | null; features: string[]; suspended: boolean }
    | undefined;
  if (!row?.active) throw new RestError(403, "42501", "Your account is not active in this workspace");
  if (row.suspended) throw new RestError(403, "42501", "This workspace is suspended. Contact support to restore it.");
  return {
    permissions: row.permissions ?? [...(DEFAULT_ROLE_PERMISSIONS[row.role_id] ?? [])],
    features: row.features,
  };
}

function tierGate(def: ResourceDef, caller: Caller, action: ResourceAction): void {
  if (!def.feature || caller.kind !== "member") return;
  if (def.featureActions && !def.featureActions.includes(action)) return;
  if (caller.features.includes(def.feature)) return;
  const tier = lowestTierWith(def.feature as Feature);
  throw new RestError(
    403,
    "tier_required",
    `${def.plural} need the ${tier.title} tier. Upgrade to ${tier.title} to use ${FEATURES[def.feature].toLowerCase()}.`,
    { feature: def.feature, tier: tier.slug },
    `Upgrade to ${tier.title}`,
  );
}

const eqTrue = (alias: SQL, column: string) => sql`${alias}.${ident(column)} = true`;

// Read scope: the rows of `def` the caller may see, as a condition on `alias` (first wall); throws when none.
export function readScope(def: ResourceDef, caller: Caller, alias: SQL): SQL | null {
  if (def.scope === "public") {
    if (caller.isOperator) return null;
    const where = Object.entries(def.publicWhere ?? {}).map(([c, v]) =>
      v ? eqTrue(alias, c) : sql`${alias}.${ident(c)} = false`,
    );
    return where.length ? sql.join(where, sql` and `) : null;
  }
  if (caller.kind === "anon") throw unauthenticated();
  if (def.scope === "platform") {
    if (caller.kind === "operator") return null;
    if (def.workspaceColumn && caller.workspaceId) {
      return sql`${alias}.${ident(def.workspaceColumn)} = ${caller.workspaceId}::uuid`;
    }
    throw denied(def, "read");
  }
  // Tenant rows: only the request's workspace, whoever asks.
  if (!caller.workspaceId) throw new RestError(403, "42501", "This request is not inside a workspace");
  const inWorkspace = sql`${alias}.workspace_id = ${caller.workspaceId}::uuid`;
  if (caller.kind === "operator") {
    if (def.writers === "platform") return inWorkspace;
    throw denied(def, "read");
  }
  tierGate(def, caller, "read");
  if (seesWholeWorkspace(def, caller)) return inWorkspace;
  if (def.ownerColumn && caller.userId) {
    return sql`${inWorkspace} and ${alias}.${ident(def.ownerColumn)} = ${caller.userId}::uuid`;
  }
  throw denied(def, "read");
}

// True when the caller's read scope of a tenant resource is its whole workspace (no owner-only rows): the
// workspace's row count then is the unfiltered list's count.
function seesWholeWorkspace(def: ResourceDef, caller: Caller): boolean {
  if (def.scope !== "tenant" || !caller.workspaceId) return false;
  if (caller.kind === "operator") return def.writers === "platform";
  return caller.kind === "member" && can(caller.permissions, `${def.name}.read`);
}

// The number of rows of `table` the caller sees unfiltered, read from the kept row count (platform/db/row-counts.ts)
// — or null when it must be counted (owner-only rows, a table without the count).
export function keptTotal(def: ResourceDef, table: string, caller: Caller): SQL | null {
  if (!caller.workspaceId || !COUNTED_TABLES.has(table) || !seesWholeWorkspace(def, caller)) return null;
  return countedRows(table, caller.workspaceId);
}

// Write check for create/update/delete; returns the row scope updates and deletes are limited to.
export function writeScope(def: ResourceDef, caller: Caller, action: ResourceAction, alias: SQL): SQL | null {
  const actions = def.actions ?? ["read", "create", "update", "delete"];
  if (!actions.includes(action)) {
    throw new RestError(405, "PGRST105", `${def.plural} cannot be ${VERB[action]}d through this API`);
  }
  if (caller.kind === "anon") throw unauthenticated();
  const writers = def.writers ?? (def.scope === "tenant" ? "workspace" : "platform");
  if (caller.kind === "operator") {
    if (def.scope === "tenant") {
      if (writers !== "platform") throw denied(def, action);
      if (!caller.workspaceId) throw new RestError(400, "PGRST100", "Name the workspace: workspace_id=eq.<id>");
      return sql`${alias}.workspace_id = ${caller.workspaceId}::uuid`;
    }
    return null;
  }
  // Members: their own workspace row (workspace settings) or the tenant rows of their workspace, by permission.
  if (def.scope !== "tenant" && !(def.workspaceColumn && action === "update")) throw denied(def, action);
  if (writers === "platform" && def.scope === "tenant") throw denied(def, action);
  tierGate(def, caller, action);
  if (!can(caller.permissions, `${def.name}.${action}`)) throw denied(def, action);
  if (def.scope !== "tenant" && def.workspaceColumn) {
    return sql`${alias}.${ident(def.workspaceColumn)} = ${caller.workspaceId}::uuid`;
  }
  return sql`${alias}.workspace_id = ${caller.workspaceId}::uuid`;
}
