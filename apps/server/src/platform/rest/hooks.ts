import type { SQL } from "drizzle-orm";
import type { Caller } from "./access.ts";

// What a resource needs beyond the generic engine: columns the server fills from the caller (never from the body)
// and rows that must stay. Modules register them (modules/*/…module.ts); the engine names no feature.
// Values may be SQL expressions over the target row (alias t0).

export type RowValues = Record<string, unknown>;

export type ResourceHooks = {
  beforeInsert?(row: RowValues, caller: Caller): RowValues;
  beforeUpdate?(patch: RowValues, caller: Caller): RowValues;
  keep?: { where: SQL; message: string }; // rows matching `where` (alias t0) cannot be deleted
};

const HOOKS = new Map<string, ResourceHooks>();

export function registerHooks(resource: string, hooks: ResourceHooks): void {
  if (HOOKS.has(resource)) throw new Error(`Hooks for ${resource} are registered twice`);
  HOOKS.set(resource, hooks);
}

export const hooksOf = (resource: string): ResourceHooks | undefined => HOOKS.get(resource);
