import { samePath } from "@workmetrics/domain";
import { authFlowState, authOneTimeToken, authUser, type OneTimeTokenType } from "@workmetrics/domain/db/schema";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/database.ts";
import { mailSealer, queueMail } from "../jobs/mail.ts";
import { AuthError, badRequest } from "./auth-error.ts";
import type { AuthDeps } from "./context.ts";
import { randomCode, randomToken, safeEqual, sha256 } from "./crypto.ts";
import { type MailKind, renderMail } from "./mail-templates.ts";
import type { AuthUserRow } from "./user-json.ts";

// GoTrue's default: e-mailed links and codes live one hour; the same address gets at most one mail a minute.
export const OTP_TTL_SECONDS = 3600;
export const MAIL_INTERVAL_SECONDS = 60;
export const AUTH_CODE_TTL_SECONDS = 300;

const TOKEN_TYPE: Record<MailKind, OneTimeTokenType> = {
  signup: "confirmation",
  invite: "invite",
  magiclink: "magiclink",
  recovery: "recovery",
  email_change: "email_change",
  reauthentication: "reauthentication",
};

const SENT_AT: Partial<Record<MailKind, keyof typeof authUser.$inferInsert>> = {
  signup: "confirmationSentAt",
  invite: "invitedAt",
  recovery: "recoverySentAt",
  email_change: "emailChangeSentAt",
  reauthentication: "reauthenticationSentAt",
};

const codeHash = (address: string, code: string) => sha256(`${address.toLowerCase()}:${code}`);

export type Pkce = { codeChallenge: string; codeChallengeMethod: string } | null;

export function parsePkce(body: { code_challenge?: unknown; code_challenge_method?: unknown }): Pkce {
  const challenge = body.code_challenge;
  if (typeof challenge !== "string" || challenge === "") return null;
  const method = String(body.code_challenge_method ?? "plain").toLowerCase();
  if (!["s256", "plain"].includes(method) || !/^[A-Za-z0-9._~-]{43,128}$/.test(challenge)) {
    throw badRequest(
      "validation_failed",
      "PKCE flow requires code_challenge_method to be s256 or plain with a valid code_challenge",
    );
  }
  return { codeChallenge: challenge, codeChallengeMethod: method };
}

// Only links back to this site or a workspace host may be followed (no open redirect).
export function safeRedirect(deps: AuthDeps, redirectTo: unknown, fallbackPath: string): string {
  const fallback = `${deps.config.publicUrl}${fallbackPath}`;
  if (typeof redirectTo !== "string" || redirectTo === "") return fallback;
  if (redirectTo.startsWith("/")) return `${deps.config.publicUrl}${samePath(redirectTo, fallbackPath)}`;
  try {
    const url = new URL(redirectTo);
    const base = deps.config.baseDomain;
    const ours =
      url.origin === new URL(deps.config.publicUrl).origin ||
      url.hostname === base ||
      url.hostname.endsWith(`.${base}`);
    return ours && (url.protocol === "http:" || url.protocol === "https:") ? url.toString() : fallback;
  } catch {
    return fallback;
  }
}

// Creates the token (replacing any earlier one of the same type) and mails the link and code.
// Returns false when the address already got a mail within the last minute (nothing is sent then).
// Callers count the e-mail rate limit first, whether or not the address has an account (no enumeration).
export async function sendTokenMail(
  deps: AuthDeps,
  user: AuthUserRow,
  kind: MailKind,
  opts: { to: string; redirectTo: string | null; pkce?: Pkce },
): Promise<boolean> {
  const sentAtKey = SENT_AT[kind];
  const lastSent = sentAtKey ? (user[sentAtKey as keyof AuthUserRow] as Date | null) : null;
  if (lastSent && Date.now() - lastSent.getTime() < MAIL_INTERVAL_SECONDS * 1000 && kind !== "invite") return false;
  const token = randomToken(32);
  const code = randomCode();
  const type = TOKEN_TYPE[kind];
  let link: string | null = null;
  if (kind !== "reauthentication") {
    const params = new URLSearchParams({ token, type: kind });
    if (opts.redirectTo) params.set("redirect_to", opts.redirectTo);
    link = `${deps.config.publicUrl}/auth/v1/verify?${params.toString()}`;
  }
  await deps.db.transaction(async (tx) => {
    let flowStateId: string | null = null;
    if (opts.pkce) {
      const [flow] = await tx
        .insert(authFlowState)
        .values({ userId: user.id, ...opts.pkce, authenticationMethod: kind })
        .returning({ id: authFlowState.id });
      flowStateId = flow.id;
    }
    await tx
      .delete(authOneTimeToken)
      .where(and(eq(authOneTimeToken.userId, user.id), eq(authOneTimeToken.tokenType, type)));
    await tx.insert(authOneTimeToken).values({
      userId: user.id,
      tokenType: type,
      tokenHash: sha256(token),
      codeHash: codeHash(opts.to, code),
      relatesTo: opts.to.toLowerCase(),
      flowStateId,
      expiresAt: sql`now() + make_interval(secs => ${OTP_TTL_SECONDS})`,
    });
    if (sentAtKey)
      await tx
        .update(authUser)
        .set({ [sentAtKey]: sql`now()` })
        .where(eq(authUser.id, user.id));
    // The outbox (issue 20 §1): the mail leaves with the token it carries, or not at all; until it leaves, the link
    // and code are sealed in the job (a job table read by an operator or a backup gives no way in).
    await queueMail(deps, tx, renderMail(kind, opts.to, { link, code }), {
      sealWith: mailSealer(deps.config.jwtSecret),
    });
  });
  return true;
}

export type VerifyType = "signup" | "invite" | "magiclink" | "recovery" | "email_change" | "email";

// Which stored token types a verify `type` may consume (type "email" is the typed six-digit code).
const ACCEPTS: Record<VerifyType, OneTimeTokenType[]> = {
  signup: ["confirmation"],
  invite: ["invite"],
  magiclink: ["magiclink"],
  recovery: ["recovery"],
  email_change: ["email_change"],
  email: ["confirmation", "magiclink", "invite"],
};

export const isVerifyType = (t: unknown): t is VerifyType => typeof t === "string" && t in ACCEPTS;

const expired = () => new AuthError(403, "otp_expired", "Email link is invalid or has expired");

export type Consumed = { token: typeof authOneTimeToken.$inferSelect; user: AuthUserRow };

// Single use: the row is deleted in the same transaction that applies its effect.
export async function consumeToken(
  tx: Tx,
  type: VerifyType,
  by: { tokenHash: string } | { address: string; code: string },
): Promise<Consumed> {
  const match =
    "tokenHash" in by
      ? eq(authOneTimeToken.tokenHash, sha256(by.tokenHash))
      : eq(authOneTimeToken.codeHash, codeHash(by.address, by.code));
  const [token] = await tx
    .select()
    .from(authOneTimeToken)
    .where(and(match, inArray(authOneTimeToken.tokenType, ACCEPTS[type])))
    .for("update");
  if (!token) throw expired();
  await tx.delete(authOneTimeToken).where(eq(authOneTimeToken.id, token.id));
  if (token.expiresAt.getTime() < Date.now()) throw expired();
  const [user] = await tx.select().from(authUser).where(eq(authUser.id, token.userId));
  if (!user || user.deletedAt) throw expired();
  return { token, user };
}

// The reauthentication nonce of PUT /user: the code mailed by GET /reauthenticate.
export async function consumeNonce(db: Db, user: AuthUserRow, nonce: string): Promise<boolean> {
  if (!user.email || !/^\d{6}$/.test(nonce)) return false;
  return db.transaction(async (tx) => {
    const [token] = await tx
      .select()
      .from(authOneTimeToken)
      .where(and(eq(authOneTimeToken.userId, user.id), eq(authOneTimeToken.tokenType, "reauthentication")))
      .for("update");
    if (!token) return false;
    // One guess per nonce: PUT /user is not rate limited, so a wrong code spends it too.
    await tx.delete(authOneTimeToken).where(eq(authOneTimeToken.id, token.id));
    return safeEqual(token.codeHash, codeHash(token.relatesTo, nonce)) && token.expiresAt.getTime() >= Date.now();
  });
}

// PKCE: the verified link yields a short-lived auth code bound to the flow state.
export async function issueAuthCode(tx: Tx, flowStateId: string): Promise<string | null> {
  const code = randomToken(24);
  const rows = await tx
    .update(authFlowState)
    .set({ authCodeHash: sha256(code), authCodeIssuedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(authFlowState.id, flowStateId))
    .returning({ id: authFlowState.id });
  return rows.length ? code : null;
}
