import { can, STORAGE_GRANTS } from "@workmetrics/domain";
import { REPORT_GRANTS } from "@workmetrics/domain/reports";
import type { ResourceAction, ResourceDef } from "@workmetrics/domain/resources";

export const ACTIONS: readonly ResourceAction[] = ["read", "create", "update", "delete"];

// One row of the matrix: a resource, or files and buckets (issue 9 §3), which are granted the same way.
export type MatrixRow = Pick<ResourceDef, "name" | "plural" | "actions">;

// The rows of the matrix: what a workspace's roles can be granted (tenant resources, the workspace itself, reading
// receivables, files and buckets).
export function grantable(resources: readonly ResourceDef[]): MatrixRow[] {
  // A document's lines follow the document's permission (permissionOf): they have no row of their own.
  const own = resources.filter((r) => (r.scope === "tenant" || r.name === "workspace") && !r.permissionOf);
  return [...own, ...REPORT_GRANTS, ...STORAGE_GRANTS];
}

export function actionsOf(def: MatrixRow): readonly ResourceAction[] {
  return def.actions ?? ACTIONS;
}

// Rows without a read of their own (buckets: listing them is part of reading files).
const UNREAD = new Set<string>(STORAGE_GRANTS.filter((g) => !actionsOf(g).includes("read")).map((g) => g.name));

// A role's patterns ("*", "*.read", "product.*") become the explicit set of `<resource>.<action>` they grant.
export function expand(patterns: readonly string[], resources: readonly MatrixRow[]): Set<string> {
  const out = new Set<string>();
  for (const r of resources)
    for (const a of actionsOf(r)) if (can(patterns, `${r.name}.${a}`)) out.add(`${r.name}.${a}`);
  return out;
}

// Granting create, update or delete without read makes no sense in the UI: writing implies reading.
export function toggle(granted: Set<string>, resource: string, action: ResourceAction): Set<string> {
  const next = new Set(granted);
  const key = `${resource}.${action}`;
  if (next.has(key)) {
    next.delete(key);
    if (action === "read") for (const a of ACTIONS) next.delete(`${resource}.${a}`);
  } else {
    next.add(key);
    if (action !== "read" && !UNREAD.has(resource)) next.add(`${resource}.read`);
  }
  return next;
}
