import {
  type Decision,
  decide,
  decideResource,
  effectivePermissions,
  fieldRequirement,
  type Member,
  type Refusal,
  SIGN_IN_MESSAGE,
} from "@workmetrics/domain";
import type { ResourceAction, ResourceDef } from "@workmetrics/domain/resources";
import { type SQL, sql } from "drizzle-orm";
import { isUuid, memberRowSql, prefetchedMember, type Tx } from "../db/database.ts";
import { COUNTED_TABLES, countedRows } from "../db/row-counts.ts";
import { RestError } from "./rest-error.ts";
import { ident } from "./sql-compile.ts";

// Who is asking and what they may do (issue 4 items 1, 5, 7; issue 9): the decision is the domain's one rule
// (`decideResource`); this file maps a refusal to the API's errors and an allowance to the rows it reaches.

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

export const memberOf = (caller: Caller): Member =>
  caller.kind === "member"
    ? { kind: "member", permissions: caller.permissions, features: caller.features }
    : { kind: caller.kind };

export const unauthenticated = () =>
  new RestError(401, "42501", SIGN_IN_MESSAGE, null, "Send the session's access token as a Bearer token");

// A refusal in the PostgREST error shape; the message is the one the web shows beside a hidden action.
export function refusalError(refusal: Refusal): RestError {
  switch (refusal.reason) {
    case "sign_in":
      return unauthenticated();
    case "not_offered":
      return new RestError(405, "PGRST105", refusal.message);
    case "tier":
      return new RestError(
        403,
        "tier_required",
        refusal.message,
        { feature: refusal.feature, tier: refusal.tier },
        `Upgrade to ${refusal.tierTitle}`,
      );
    case "permission":
      return new RestError(403, "42501", refusal.message, `Needs the permission ${refusal.permission}`, null);
    default:
      return new RestError(403, "42501", refusal.message);
  }
}

// A column read by a permission of its own (FieldDef.permission: a product's cost) that the caller lacks is left out
// of `*` (false) and refused when named (a select, a filter or an order): the same rule the web's pages hide it by.
export function readsColumn(def: ResourceDef, caller: Caller, column: string, named: boolean): boolean {
  const field = def.fields.find((f) => f.name === column);
  const need = field ? fieldRequirement(def, field) : null;
  if (!need || caller.kind !== "member") return true;
  const d = decide(memberOf(caller), need);
  if (d.allowed) return true;
  if (named) throw refusalError(d);
  return false;
}

// The decision for `action` on `def`, thrown when refused.
export function requireAllowed(def: ResourceDef, caller: Caller, action: ResourceAction): Decision & { allowed: true } {
  const d = decideResource(memberOf(caller), def, action);
  if (!d.allowed) throw refusalError(d);
  return d;
}

// The member's permissions and tier, read inside the request's transaction (as the request role, so RLS applies).
export async function loadMember(
  tx: Tx,
  userId: string,
  workspaceId: string,
): Promise<Pick<Caller, "permissions" | "features">> {
  // Read as the request's transaction opened, on PostgreSQL (inRequest); else now.
  const found = prefetchedMember(tx, userId, workspaceId) ?? {
    row:
      isUuid(userId) && isUuid(workspaceId)
        ? (await tx.execute(sql.raw(memberRowSql(userId, workspaceId)))).rows[0]
        : undefined,
  };
  const row = found.row as
    | { active: boolean; role_id: number; permissions: string[] | null; features: string[]; suspended: boolean }
    | undefined;
  if (!row?.active) throw new RestError(403, "42501", "Your account is not active in this workspace");
  if (row.suspended) throw new RestError(403, "42501", "This workspace is suspended. Contact support to restore it.");
  return { permissions: effectivePermissions(row.role_id, row.permissions), features: row.features };
}

const eqTrue = (alias: SQL, column: string) => sql`${alias}.${ident(column)} = true`;

// Read scope: the rows of `def` the caller may see, as a condition on `alias` (first wall); throws when refused.
// `label`: only the record's id and label are read, for a row the caller already reads (a product's category
// name): the labels of what a readable list references are readable too (issue 9 §2).
export function readScope(def: ResourceDef, caller: Caller, alias: SQL, label = false): SQL | null {
  const d = decideResource(memberOf(caller), def, "read");
  if (!d.allowed && !(label && caller.kind === "member" && d.reason === "permission" && def.scope === "tenant")) {
    throw refusalError(d);
  }
  if (def.scope === "public") {
    if (caller.isOperator) return null;
    const where = Object.entries(def.publicWhere ?? {}).map(([c, v]) =>
      v ? eqTrue(alias, c) : sql`${alias}.${ident(c)} = false`,
    );
    return where.length ? sql.join(where, sql` and `) : null;
  }
  if (caller.kind === "operator") {
    // Operators read platform tables whole and the operator-written tenant tables (credits) of every workspace,
    // or of the one they name.
    return def.scope === "tenant" && caller.workspaceId
      ? sql`${alias}.workspace_id = ${caller.workspaceId}::uuid`
      : null;
  }
  if (!caller.workspaceId) throw new RestError(403, "42501", "This request is not inside a workspace");
  if (def.scope === "platform") {
    return sql`${alias}.${ident(def.workspaceColumn ?? "id")} = ${caller.workspaceId}::uuid`;
  }
  const inWorkspace = sql`${alias}.workspace_id = ${caller.workspaceId}::uuid`;
  // Issue 23: the marketplace's rows other workspaces read (DESIGN §2.2: only there) — published profiles and
  // listings, and the two parties' orders, threads and messages (row-level security holds the same).
  if (def.shared === "published") {
    // A listing also needs its seller's profile published (as its row-level security policy says; a trigger keeps
    // the profile's flag on the listing).
    const seller = def.name === "marketplace_product" ? sql` and ${alias}.seller_published = true` : sql``;
    return sql`(${inWorkspace} or (${alias}.published = true${seller}))`;
  }
  if (def.shared === "parties") {
    return sql`${caller.workspaceId}::uuid in (${alias}.buyer_workspace_id, ${alias}.seller_workspace_id)`;
  }
  if (!d.allowed || d.scope === "all") return inWorkspace;
  const owner = ident(def.ownerColumn as string);
  // Issue 24: an unassigned conversation is every answering member's own too.
  const own = (at: SQL) =>
    def.unassignedIsOwn
      ? sql`(${at}.${owner} = ${caller.userId}::uuid or ${at}.${owner} is null)`
      : sql`${at}.${owner} = ${caller.userId}::uuid`;
  if (def.ownerParent) {
    // A document's lines: the rows of the documents the caller owns.
    const p = def.ownerParent;
    return sql`${inWorkspace} and exists (select 1 from ${ident(p.table)} own_parent
      where own_parent.workspace_id = ${alias}.workspace_id and own_parent.id = ${alias}.${ident(p.column)}
        and ${own(sql`own_parent`)})`;
  }
  return sql`${inWorkspace} and ${own(alias)}`;
}

// True when the caller's read scope of a tenant resource is its whole workspace (no owner-only rows): the
// workspace's row count then is the unfiltered list's count.
function seesWholeWorkspace(def: ResourceDef, caller: Caller): boolean {
  if (def.scope !== "tenant" || !caller.workspaceId) return false;
  const d = decideResource(memberOf(caller), def, "read");
  return d.allowed && d.scope === "all";
}

// The number of rows of `table` the caller sees unfiltered, read from the kept row count (platform/db/row-counts.ts)
// — or null when it must be counted (owner-only rows, a table without the count).
export function keptTotal(def: ResourceDef, table: string, caller: Caller): SQL | null {
  if (!caller.workspaceId || !COUNTED_TABLES.has(table) || !seesWholeWorkspace(def, caller)) return null;
  return countedRows(table, caller.workspaceId);
}

// Write check for create/update/delete; returns the row scope updates and deletes are limited to.
export function writeScope(def: ResourceDef, caller: Caller, action: ResourceAction, alias: SQL): SQL | null {
  requireAllowed(def, caller, action);
  if (caller.kind === "operator") {
    if (def.scope !== "tenant") return null;
    if (!caller.workspaceId) throw new RestError(400, "PGRST100", "Name the workspace: workspace_id=eq.<id>");
    return sql`${alias}.workspace_id = ${caller.workspaceId}::uuid`;
  }
  if (def.scope !== "tenant") return sql`${alias}.${ident(def.workspaceColumn ?? "id")} = ${caller.workspaceId}::uuid`;
  return sql`${alias}.workspace_id = ${caller.workspaceId}::uuid`;
}
