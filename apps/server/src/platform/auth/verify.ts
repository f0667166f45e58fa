import { createHash } from "node:crypto";
import { authFlowState, authUser } from "@workmetrics/domain/db/schema";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Tx } from "../db/database.ts";
import { AuthError, badRequest } from "./auth-error.ts";
import type { AuthDeps, ClientMeta } from "./context.ts";
import { safeEqual, sha256 } from "./crypto.ts";
import {
  AUTH_CODE_TTL_SECONDS,
  type Consumed,
  consumeToken,
  issueAuthCode,
  type VerifyType,
} from "./one-time-tokens.ts";
import { isDeactivated, startSessionTx, type TokenResponse } from "./sessions.ts";
import type { AuthUserRow } from "./user-json.ts";

// GoTrue's authentication method references for each way in.
const AMR: Record<string, string> = {
  confirmation: "email/signup",
  invite: "invite",
  magiclink: "magiclink",
  recovery: "recovery",
  email_change: "email_change",
};

async function applyToken(tx: Tx, { token, user }: Consumed): Promise<AuthUserRow> {
  if (token.tokenType === "email_change") {
    const [taken] = await tx
      .select({ id: authUser.id })
      .from(authUser)
      .where(and(sql`lower(${authUser.email}) = ${token.relatesTo}`, ne(authUser.id, user.id)));
    if (taken) throw new AuthError(422, "email_exists", "A user with this email address has already been registered");
    const [changed] = await tx
      .update(authUser)
      .set({ email: token.relatesTo, emailChange: null, emailConfirmedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(authUser.id, user.id))
      .returning();
    return changed;
  }
  const [confirmed] = await tx
    .update(authUser)
    .set({ emailConfirmedAt: sql`coalesce(${authUser.emailConfirmedAt}, now())`, updatedAt: sql`now()` })
    .where(eq(authUser.id, user.id))
    .returning();
  return confirmed;
}

export type VerifyOutcome = { kind: "session"; session: TokenResponse } | { kind: "code"; code: string };

// POST /verify and GET /verify: consume the token, apply it, and sign the user in — or, for a PKCE flow followed
// in the browser, hand out an auth code for the client to exchange with its verifier.
export async function verifyToken(
  deps: AuthDeps,
  meta: ClientMeta,
  type: VerifyType,
  by: { tokenHash: string } | { address: string; code: string },
  opts: { allowPkce: boolean },
): Promise<VerifyOutcome> {
  return deps.db.transaction(async (tx) => {
    const consumed = await consumeToken(tx, type, by);
    const user = await applyToken(tx, consumed);
    if (await isDeactivated(tx, user)) throw badRequest("user_banned", "User is banned");
    if (opts.allowPkce && consumed.token.flowStateId) {
      const code = await issueAuthCode(tx, consumed.token.flowStateId);
      if (code) return { kind: "code" as const, code };
    }
    const session = await startSessionTx(deps, tx, user, AMR[consumed.token.tokenType] ?? "otp", meta);
    return { kind: "session" as const, session };
  });
}

// POST /token?grant_type=pkce
export async function pkceGrant(deps: AuthDeps, meta: ClientMeta, authCode: string, verifier: string) {
  return deps.db.transaction(async (tx) => {
    const [flow] = await tx
      .select()
      .from(authFlowState)
      .where(eq(authFlowState.authCodeHash, sha256(authCode)))
      .for("update");
    if (!flow?.authCodeIssuedAt)
      throw new AuthError(404, "flow_state_not_found", "invalid flow state, no valid flow state found");
    await tx.delete(authFlowState).where(eq(authFlowState.id, flow.id));
    if (Date.now() - flow.authCodeIssuedAt.getTime() > AUTH_CODE_TTL_SECONDS * 1000) {
      throw new AuthError(400, "flow_state_expired", "invalid flow state, flow state has expired");
    }
    const expected =
      flow.codeChallengeMethod === "s256" ? createHash("sha256").update(verifier).digest("base64url") : verifier;
    if (!safeEqual(expected, flow.codeChallenge)) {
      throw badRequest("bad_code_verifier", "code challenge does not match previously saved code verifier");
    }
    const [user] = await tx.select().from(authUser).where(eq(authUser.id, flow.userId));
    if (!user || (await isDeactivated(tx, user))) throw badRequest("user_banned", "User is banned");
    const method = AMR[flow.authenticationMethod === "signup" ? "confirmation" : flow.authenticationMethod] ?? "otp";
    return startSessionTx(deps, tx, user, method, meta);
  });
}
