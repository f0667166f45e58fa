import { type AuthMethodReference, authRefreshToken, authSession, authUser } from "@workmetrics/domain/db/schema";
import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/database.ts";
import { badRequest } from "./auth-error.ts";
import type { AuthDeps, ClientMeta } from "./context.ts";
import { hmac, randomToken, sha256 } from "./crypto.ts";
import { ACCESS_TOKEN_SECONDS } from "./jwt.ts";
import {
  type AuthUserRow,
  isBanned,
  loadFactors,
  loadMembership,
  type Membership,
  type UserJson,
  userJson,
} from "./user-json.ts";

export type SessionRow = typeof authSession.$inferSelect;

export type TokenResponse = {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: UserJson;
};

const nowSeconds = () => Math.floor(Date.now() / 1000);

// The refresh token is derived from its row id with JWT_SECRET, so the current token can be handed out again
// (reuse interval) while the database keeps only a hash.
const refreshTokenFor = (secret: string, id: string) => hmac(secret, `refresh:${id}`);

async function insertRefreshToken(
  deps: AuthDeps,
  tx: Tx,
  session: SessionRow,
  parentId: string | null,
): Promise<string> {
  const id = randomToken(16);
  const token = refreshTokenFor(deps.config.jwtSecret, id);
  await tx
    .insert(authRefreshToken)
    .values({ id, tokenHash: sha256(token), sessionId: session.id, userId: session.userId, parentId });
  return token;
}

export async function tokenResponse(
  deps: AuthDeps,
  tx: Tx,
  user: AuthUserRow,
  session: SessionRow,
  refreshToken: string,
  knownMembership?: Membership | null,
): Promise<TokenResponse> {
  const membership = knownMembership === undefined ? await loadMembership(tx, user.id) : knownMembership;
  const factors = await loadFactors(tx, user.id);
  const now = nowSeconds();
  const access = await deps.signer.sign(
    {
      sub: user.id,
      aal: session.aal === "aal2" ? "aal2" : "aal1",
      amr: session.amr,
      session_id: session.id,
      email: user.email ?? "",
      phone: user.phone ?? "",
      app_metadata: user.appMetadata as Record<string, unknown>,
      user_metadata: user.userMetadata as Record<string, unknown>,
      is_anonymous: false,
      workspace_id: membership?.workspaceId ?? null,
      workspace_slug: membership?.workspaceSlug ?? null,
      role_id: membership?.roleId ?? null,
    },
    now,
  );
  return {
    access_token: access,
    token_type: "bearer",
    expires_in: ACCESS_TOKEN_SECONDS,
    expires_at: now + ACCESS_TOKEN_SECONDS,
    refresh_token: refreshToken,
    user: userJson(user, factors),
  };
}

// A deactivated user (banned, deleted, or whose workspace membership is inactive) cannot hold a session.
export async function isDeactivated(tx: Db | Tx, user: AuthUserRow): Promise<boolean> {
  if (isBanned(user)) return true;
  const membership = await loadMembership(tx, user.id);
  return membership !== null && !membership.active;
}

export async function startSession(
  deps: AuthDeps,
  user: AuthUserRow,
  method: string,
  meta: ClientMeta,
): Promise<TokenResponse> {
  return deps.db.transaction((tx) => startSessionTx(deps, tx, user, method, meta));
}

export async function startSessionTx(
  deps: AuthDeps,
  tx: Tx,
  user: AuthUserRow,
  method: string,
  meta: ClientMeta,
): Promise<TokenResponse> {
  const amr: AuthMethodReference[] = [{ method, timestamp: nowSeconds() }];
  const [session] = await tx
    .insert(authSession)
    .values({ userId: user.id, amr, ip: meta.ip, userAgent: meta.userAgent?.slice(0, 512) ?? null })
    .returning();
  const [signedIn] = await tx
    .update(authUser)
    .set({ lastSignInAt: sql`now()` })
    .where(eq(authUser.id, user.id))
    .returning();
  const refresh = await insertRefreshToken(deps, tx, session, null);
  return tokenResponse(deps, tx, signedIn, session, refresh);
}

const notFound = () => badRequest("refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");

// Issue 3 rule 2: rotation; a rotated token shown again within the reuse interval gets the session's current token
// (tabs refreshing at once), after it the whole session is revoked. The row lock orders concurrent refreshes.
export async function refreshGrant(deps: AuthDeps, token: string): Promise<TokenResponse> {
  const reuseMs = deps.config.auth.refreshReuseSeconds * 1000;
  const result = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(authRefreshToken)
      .where(eq(authRefreshToken.tokenHash, sha256(token)))
      .for("update");
    if (!row) throw notFound();
    const [found] = await tx
      .select({ session: authSession, user: authUser })
      .from(authSession)
      .innerJoin(authUser, eq(authUser.id, authSession.userId))
      .where(eq(authSession.id, row.sessionId));
    if (!found) throw notFound();
    const { session, user } = found;
    const membership = await loadMembership(tx, user.id);
    if (isBanned(user) || (membership !== null && !membership.active)) {
      await tx.delete(authSession).where(eq(authSession.userId, user.id));
      return { revoked: true as const, error: badRequest("user_banned", "User is banned") };
    }
    let current: string;
    if (row.revoked) {
      const within = row.revokedAt !== null && Date.now() - row.revokedAt.getTime() <= reuseMs;
      const [active] = within
        ? await tx
            .select()
            .from(authRefreshToken)
            .where(and(eq(authRefreshToken.sessionId, session.id), eq(authRefreshToken.revoked, false)))
            .orderBy(desc(authRefreshToken.createdAt))
            .limit(1)
        : [];
      if (!active) {
        await tx.delete(authSession).where(eq(authSession.id, session.id));
        return {
          revoked: true as const,
          error: badRequest("refresh_token_already_used", "Invalid Refresh Token: Already Used"),
        };
      }
      current = refreshTokenFor(deps.config.jwtSecret, active.id);
    } else {
      await tx
        .update(authRefreshToken)
        .set({ revoked: true, revokedAt: sql`now()`, updatedAt: sql`now()` })
        .where(eq(authRefreshToken.id, row.id));
      current = await insertRefreshToken(deps, tx, session, row.id);
    }
    const [refreshed] = await tx
      .update(authSession)
      .set({ refreshedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(authSession.id, session.id))
      .returning();
    return { revoked: false as const, response: await tokenResponse(deps, tx, user, refreshed, current, membership) };
  });
  // The revocation must commit, so the error is thrown only after the transaction.
  if (result.revoked) throw result.error;
  return result.response;
}

// After MFA verification the session is aal2: earlier refresh tokens are retired and a new one issued.
export async function upgradeSession(
  deps: AuthDeps,
  sessionId: string,
  factorId: string,
  method: string,
): Promise<TokenResponse> {
  return deps.db.transaction(async (tx) => {
    const [session] = await tx.select().from(authSession).where(eq(authSession.id, sessionId)).for("update");
    if (!session) throw badRequest("session_not_found", "Session not found");
    const [user] = await tx.select().from(authUser).where(eq(authUser.id, session.userId));
    const amr = [...session.amr.filter((a) => a.method !== method), { method, timestamp: nowSeconds() }];
    const [upgraded] = await tx
      .update(authSession)
      .set({ aal: "aal2", amr, factorId, updatedAt: sql`now()` })
      .where(eq(authSession.id, sessionId))
      .returning();
    await tx
      .update(authRefreshToken)
      .set({ revoked: true, revokedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(authRefreshToken.sessionId, sessionId), eq(authRefreshToken.revoked, false)));
    const refresh = await insertRefreshToken(deps, tx, upgraded, null);
    return tokenResponse(deps, tx, user, upgraded, refresh);
  });
}

export type SignOutScope = "global" | "local" | "others";

export async function signOut(db: Db, userId: string, sessionId: string, scope: SignOutScope): Promise<void> {
  const where =
    scope === "local"
      ? eq(authSession.id, sessionId)
      : scope === "others"
        ? and(eq(authSession.userId, userId), ne(authSession.id, sessionId))
        : eq(authSession.userId, userId);
  await db.delete(authSession).where(where);
}

// Issue 3 rule 2: deactivating a user ends all their sessions (refresh tokens go with them).
export async function endUserSessions(db: Db | Tx, userId: string): Promise<void> {
  await db.delete(authSession).where(eq(authSession.userId, userId));
}
