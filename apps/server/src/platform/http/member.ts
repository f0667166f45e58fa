import { decide, MESSAGES, memberRequirement } from "@workmetrics/domain";
import type { FastifyRequest } from "fastify";
import type { AuthInfo } from "../auth/guard.ts";
import { type Db, inRequest, type Tx } from "../db/database.ts";
import { loadMember } from "../rest/access.ts";
import { HttpError } from "./errors.ts";

export type Member = {
  auth: AuthInfo;
  workspaceId: string;
  permissions: readonly string[];
  features: readonly string[];
};

// For module routes beyond /rest/v1: a signed-in member of a workspace holding `permission`, and one request
// transaction (settings + RLS role) to work in — the same two walls and the same access rule the REST engine uses.
export async function asMember<T>(
  req: FastifyRequest,
  db: Db,
  permission: string,
  fn: (tx: Tx, member: Member) => Promise<T>,
  does = "do that",
): Promise<T> {
  const auth = await req.server.authGuard.authenticate(req);
  if (!auth) throw new HttpError(401, "not_authenticated", MESSAGES.notAuthenticated);
  const workspaceId = auth.workspaceId;
  if (!workspaceId) throw new HttpError(403, "no_workspace", "This needs a workspace account");
  return inRequest(db, { workspaceId, userId: auth.userId, role: "authenticated" }, async (tx) => {
    const access = await loadMember(tx, auth.userId, workspaceId);
    const d = decide({ kind: "member", ...access }, memberRequirement(permission, does));
    if (!d.allowed) throw new HttpError(403, "forbidden", d.message, { permission });
    return fn(tx, { auth, workspaceId, ...access });
  });
}
