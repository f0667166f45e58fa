import { ANONYMOUS, decide, MESSAGES, type Member, STORAGE_ACTIONS, type StoragePermission } from "@workmetrics/domain";
import type { FastifyRequest } from "fastify";
import { type Db, inRequest, type Tx } from "../db/database.ts";
import { loadMember } from "../rest/access.ts";
import { RestError } from "../rest/rest-error.ts";
import { StorageError } from "./storage-error.ts";

// Who is asking, reduced to what storage needs: the workspace every query is scoped to (DESIGN §2.2) and what
// the member may do there. A signed link's caller is anonymous: the link itself is the permission.
export type Caller = { workspaceId: string; userId: string | null; access: Member };

// A signed-in member of a workspace, with the role's effective permissions; with `need`, refused unless allowed.
export async function member(req: FastifyRequest, db: Db, need?: StoragePermission): Promise<Caller> {
  const auth = await req.server.authGuard.authenticate(req);
  if (!auth) throw new StorageError(401, "not_authenticated", MESSAGES.notAuthenticated);
  const workspaceId = auth.workspaceId;
  if (!workspaceId) {
    throw new StorageError(403, "AccessDenied", "Files belong to a workspace, and this account is not in one.");
  }
  const ctx = { workspaceId, userId: auth.userId, role: "authenticated" as const };
  const granted = await inRequest(db, ctx, (tx) => loadMember(tx, auth.userId, workspaceId)).catch((err: unknown) => {
    // An inactive account or a suspended workspace, said in the storage API's shape.
    throw err instanceof RestError ? new StorageError(err.status, "AccessDenied", err.message) : err;
  });
  const caller: Caller = { workspaceId, userId: auth.userId, access: { kind: "member", ...granted } };
  if (need) allow(caller, need);
  return caller;
}

export const signedLinkCaller = (workspaceId: string): Caller => ({ workspaceId, userId: null, access: ANONYMOUS });

// Issue 9 §3: files follow the permission matrix through the one access rule; a refusal says what was wanted.
export function allow(caller: Caller, need: StoragePermission): void {
  const d = decide(caller.access, STORAGE_ACTIONS[need]);
  if (!d.allowed) throw new StorageError(403, "AccessDenied", d.message);
}

export const may = (caller: Caller, need: StoragePermission): boolean =>
  decide(caller.access, STORAGE_ACTIONS[need]).allowed;

// Second wall: the query runs as the RLS-bound role with app.workspace_id set; the first wall is each query's
// own workspace_id filter.
export function asCaller<T>(db: Db, caller: Caller, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return inRequest(
    db,
    { workspaceId: caller.workspaceId, userId: caller.userId, role: caller.userId ? "authenticated" : "anon" },
    fn,
  );
}
