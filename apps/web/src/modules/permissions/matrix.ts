import { can } from "@workmetrics/domain";
import type { ResourceAction, ResourceDef } from "@workmetrics/domain/resources";

export const ACTIONS: readonly ResourceAction[] = ["read", "create", "update", "delete"];

// The rows of the matrix: what a workspace's roles can be granted (tenant resources and the workspace itself).
export function grantable(resources: readonly ResourceDef[]): ResourceDef[] {
  return resources.filter((r) => r.scope === "tenant" || r.name === "workspace");
}

export function actionsOf(def: ResourceDef): readonly ResourceAction[] {
  return def.actions ?? ACTIONS;
}

// A role's patterns ("*", "*.read", "product.*") become the explicit set of `<resource>.<action>` they grant.
export function expand(patterns: readonly string[], resources: readonly ResourceDef[]): Set<string> {
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
    if (action !== "read") next.add(`${resource}.read`);
  }
  return next;
}
