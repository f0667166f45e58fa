import { MESSAGES, ROLE } from "@workmetrics/domain";
import type { FastifyRequest } from "fastify";
import { type Db, inRequest, type Tx } from "../db/database.ts";
import { StorageError } from "./storage-error.ts";

// Who is asking, reduced to what storage needs: the workspace every query is scoped to (DESIGN §2.2).
export type Caller = { workspaceId: string; userId: string | null; roleId: number | null };

export async function member(req: FastifyRequest): Promise<Caller> {
  const auth = await req.server.authGuard.authenticate(req);
  if (!auth) throw new StorageError(401, "not_authenticated", MESSAGES.notAuthenticated);
  if (!auth.workspaceId) {
    throw new StorageError(403, "AccessDenied", "Files belong to a workspace, and this account is not in one.");
  }
  return { workspaceId: auth.workspaceId, userId: auth.userId, roleId: auth.roleId };
}

// Changing or removing a whole bucket is for the workspace's owner and admins.
export function requireBucketAdmin(caller: Caller): void {
  if (caller.roleId !== ROLE.Owner && caller.roleId !== ROLE.Admin) {
    throw new StorageError(403, "AccessDenied", "Only the workspace owner or an admin can change or remove a bucket.");
  }
}

// Second wall: the query runs as the RLS-bound role with app.workspace_id set; the first wall is each query's
// own workspace_id filter.
export function asCaller<T>(db: Db, caller: Caller, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return inRequest(
    db,
    { workspaceId: caller.workspaceId, userId: caller.userId, role: caller.userId ? "authenticated" : "anon" },
    fn,
  );
}
