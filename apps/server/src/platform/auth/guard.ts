import { MESSAGES } from "@workmetrics/domain";
import { authMfaFactor, authSession, authUser } from "@workmetrics/domain/db/schema";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../db/database.ts";
import { readSessionCookie } from "./cookies.ts";
import { type AccessClaims, decodePayload, type Signer } from "./jwt.ts";

// What a protected route knows about its caller (issue 3 item 5).
export type AuthInfo = {
  userId: string;
  sessionId: string;
  aal: "aal1" | "aal2";
  workspaceId: string | null;
  roleId: number | null;
  isPlatformOperator: boolean;
  email: string | null;
  claims: AccessClaims;
};

export type AuthGuard = {
  // preHandler for protected API routes: sets req.auth or answers 401 not_authenticated.
  requireAuth(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  // The caller's session from the bearer token or the sb cookie, or null.
  authenticate(req: FastifyRequest): Promise<AuthInfo | null>;
  // For page loads: a signed session cookie whose session is still live counts even if the access token has
  // expired, since the SPA refreshes it on load.
  hasPageSession(req: FastifyRequest): Promise<boolean>;
  redirectPath: string;
};

declare module "fastify" {
  interface FastifyRequest {
    auth: AuthInfo | null;
  }
  interface FastifyInstance {
    authGuard: AuthGuard;
  }
}

export const NOT_AUTHENTICATED = { error: "not_authenticated", description: MESSAGES.notAuthenticated } as const;

export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (typeof header !== "string") return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m ? m[1] : null;
}

// A session counts when its token is genuine, its row still exists (not signed out or revoked), the user is not
// banned or deleted, and — for users with a verified MFA factor — it reached aal2.
export async function sessionForToken(
  db: Db,
  signer: Signer,
  token: string,
  opts: { ignoreExpiry?: boolean; allowAal1?: boolean } = {},
): Promise<AuthInfo | null> {
  if (!decodePayload(token)) return null;
  const claims = await signer.verify(token, opts);
  if (!claims) return null;
  const rows = await db
    .select({
      aal: authSession.aal,
      isPlatformOperator: authUser.isPlatformOperator,
      email: authUser.email,
      usable: sql<boolean>`${authUser.deletedAt} is null and (${authUser.bannedUntil} is null or ${authUser.bannedUntil} <= now())`,
      mfa: sql<boolean>`exists (select 1 from ${authMfaFactor} where ${authMfaFactor.userId} = ${authUser.id} and ${authMfaFactor.status} = 'verified')`,
    })
    .from(authSession)
    .innerJoin(authUser, eq(authUser.id, authSession.userId))
    .where(and(eq(authSession.id, claims.session_id), eq(authSession.userId, claims.sub)));
  const row = rows[0];
  if (!row?.usable) return null;
  const aal = row.aal === "aal2" ? "aal2" : "aal1";
  if (row.mfa && aal !== "aal2" && !opts.allowAal1) return null;
  return {
    userId: claims.sub,
    sessionId: claims.session_id,
    aal,
    workspaceId: claims.workspace_id ?? null,
    roleId: claims.role_id ?? null,
    isPlatformOperator: row.isPlatformOperator,
    email: row.email,
    claims,
  };
}

export function createGuard(db: Db, signer: Signer, redirectPath: string): AuthGuard {
  const authenticate = async (req: FastifyRequest) => {
    const token = bearerToken(req) ?? readSessionCookie(req);
    return token ? sessionForToken(db, signer, token) : null;
  };
  return {
    redirectPath,
    authenticate,
    async requireAuth(req, reply) {
      const auth = await authenticate(req);
      if (!auth) return reply.code(401).send(NOT_AUTHENTICATED);
      req.auth = auth;
      return undefined;
    },
    async hasPageSession(req) {
      const token = readSessionCookie(req);
      return token ? (await sessionForToken(db, signer, token, { ignoreExpiry: true })) !== null : false;
    },
  };
}
