import { authUser } from "@workmetrics/domain/db/schema";
import { eq } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { AuthError } from "./auth-error.ts";
import type { AuthDeps, ClientMeta } from "./context.ts";
import { type AuthInfo, bearerToken, sessionForToken } from "./guard.ts";
import type { AuthUserRow } from "./user-json.ts";

export const clientMeta = (req: FastifyRequest): ClientMeta => ({
  ip: req.ip,
  userAgent: typeof req.headers["user-agent"] === "string" ? req.headers["user-agent"] : null,
});

export type Caller = { auth: AuthInfo; user: AuthUserRow };

// GoTrue endpoints that act for the signed-in user (aal1 is enough: it is how MFA is reached).
export async function requireCaller(deps: AuthDeps, req: FastifyRequest): Promise<Caller> {
  const token = bearerToken(req);
  if (!token) throw new AuthError(401, "no_authorization", "This endpoint requires a valid Bearer token");
  const claims = await deps.signer.verify(token);
  if (!claims) {
    throw new AuthError(
      403,
      "bad_jwt",
      "invalid JWT: unable to parse or verify signature, token is expired or invalid",
    );
  }
  const auth = await sessionForToken(deps.db, deps.signer, token, { allowAal1: true });
  if (!auth) throw new AuthError(403, "session_not_found", "Session from session_id claim in JWT does not exist");
  const [user] = await deps.db.select().from(authUser).where(eq(authUser.id, auth.userId));
  if (!user) throw new AuthError(404, "user_not_found", "User from sub claim in JWT does not exist");
  return { auth, user };
}

// Admin endpoints (issue 3 item 1): platform operators only, and with MFA done when they have a factor.
export async function requireOperator(deps: AuthDeps, req: FastifyRequest): Promise<Caller> {
  const caller = await requireCaller(deps, req);
  const strict = await sessionForToken(deps.db, deps.signer, bearerToken(req) ?? "");
  if (!strict || !caller.user.isPlatformOperator) throw new AuthError(403, "not_admin", "User not allowed");
  return caller;
}
