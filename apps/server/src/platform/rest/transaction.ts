import { sql } from "drizzle-orm";
import type { AuthInfo } from "../auth/guard.ts";
import { type Db, inRequest, isUuid, statementTimeout, type Tx } from "../db/database.ts";
import { ANON, type Caller, loadMember } from "./access.ts";
import type { ParsedQuery } from "./query-parse.ts";
import type { ResourceMeta } from "./resource-meta.ts";
import { RestError } from "./rest-error.ts";

// Ends a request's transaction by rolling it back while still answering with `value` (Prefer: tx=rollback,
// an all-or-nothing import that found bad rows).
export class Rollback<T = unknown> extends Error {
  constructor(readonly value: T) {
    super("rollback");
  }
}

export type CallerPlan = { caller: Caller; platform: boolean };

// The workspace a platform operator names for a tenant resource it may write (credits): workspace_id=eq.… in the
// query, or the workspace_id of the body's rows.
function operatorTarget(query: ParsedQuery | null, body: unknown): string | null {
  const top = query?.levels.get("")?.conditions ?? [];
  const fromQuery = top.find((c) => c.kind === "filter" && c.column === "workspace_id" && c.op === "eq" && !c.negate);
  const rows = Array.isArray(body) ? body : body && typeof body === "object" ? [body] : [];
  const fromBody = new Set(rows.map((r) => (r as Record<string, unknown>).workspace_id).filter((v) => v !== undefined));
  if (fromBody.size > 1) throw new RestError(400, "PGRST100", "Write to one workspace per request");
  const target = fromQuery?.kind === "filter" ? fromQuery.value : ([...fromBody][0] ?? null);
  if (target === null) return null;
  if (typeof target !== "string" || !isUuid(target)) {
    throw new RestError(400, "22P02", "workspace_id must be a workspace id (uuid)");
  }
  return target;
}

export function callerFor(
  auth: AuthInfo | null,
  meta: ResourceMeta | null,
  query: ParsedQuery | null,
  body: unknown,
): CallerPlan {
  if (!auth) return { caller: ANON, platform: false };
  const base = { userId: auth.userId, permissions: [], features: [], isOperator: auth.isPlatformOperator };
  if (auth.isPlatformOperator && meta) {
    if (meta.def.scope !== "tenant") {
      return { caller: { ...base, kind: "operator", workspaceId: auth.workspaceId }, platform: true };
    }
    if (meta.def.writers === "platform") {
      // No workspace named: the platform page over every workspace (reads only; a write must name one).
      const target = operatorTarget(query, body) ?? auth.workspaceId;
      return { caller: { ...base, kind: "operator", workspaceId: target }, platform: target === null };
    }
    // Other tenant tables are the workspaces' own: the access rule refuses the operator (workspace_only).
    return { caller: { ...base, kind: "operator", workspaceId: null }, platform: false };
  }
  return { caller: { ...base, kind: "member", workspaceId: auth.workspaceId }, platform: false };
}

// DESIGN §2.2: every request is one transaction that sets the workspace, user and role first and then runs as the
// non-superuser request role (inRequest). Platform operators' platform-table work runs on the platform connection.
export async function inCallerTransaction<T>(
  db: Db,
  plan: CallerPlan,
  rollback: boolean,
  fn: (tx: Tx, caller: Caller) => Promise<T>,
): Promise<T> {
  const { caller } = plan;
  const body = async (tx: Tx): Promise<T> => {
    let full = caller;
    if (caller.kind === "member" && caller.userId && caller.workspaceId) {
      full = { ...caller, ...(await loadMember(tx, caller.userId, caller.workspaceId)) };
    }
    const value = await fn(tx, full);
    if (rollback) throw new Rollback(value);
    return value;
  };
  try {
    if (plan.platform) {
      return await db.transaction(async (tx) => {
        await tx.execute(
          sql`select set_config('app.user_id', ${caller.userId ?? ""}, true), set_config('app.role', 'platform_operator', true),
                     set_config('statement_timeout', ${String(statementTimeout(db))}, true)`,
        );
        return body(tx);
      });
    }
    const role = caller.kind === "anon" ? "anon" : caller.kind === "operator" ? "platform_operator" : "authenticated";
    return await inRequest(db, { workspaceId: caller.workspaceId, userId: caller.userId, role }, body);
  } catch (err) {
    if (err instanceof Rollback) return err.value as T;
    throw err;
  }
}
