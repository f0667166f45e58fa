import { authMfaChallenge, authMfaFactor, authSession } from "@workmetrics/domain/db/schema";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import QRCode from "qrcode";
import { AuthError, badRequest } from "./auth-error.ts";
import type { AuthDeps } from "./context.ts";
import { hit } from "./rate-limit.ts";
import { type Caller, requireCaller } from "./request.ts";
import { upgradeSession } from "./sessions.ts";
import { newTotpSecret, totpUri, verifyTotp } from "./totp.ts";
import { loadFactors } from "./user-json.ts";

type Body = Record<string, unknown>;
const obj = (v: unknown): Body => (v && typeof v === "object" && !Array.isArray(v) ? (v as Body) : {});

// GoTrue's defaults: at most 10 factors, challenges valid 5 minutes.
const MAX_FACTORS = 10;
const CHALLENGE_SECONDS = 300;

async function ownFactor(deps: AuthDeps, caller: Caller, id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new AuthError(404, "mfa_factor_not_found", "Factor not found");
  const [factor] = await deps.db
    .select()
    .from(authMfaFactor)
    .where(and(eq(authMfaFactor.id, id), eq(authMfaFactor.userId, caller.user.id)));
  if (!factor) throw new AuthError(404, "mfa_factor_not_found", "Factor not found");
  return factor;
}

// TOTP factors: enroll (secret + QR code), challenge, verify (session becomes aal2), unenroll.
export async function mfaRoutes(app: FastifyInstance, deps: AuthDeps): Promise<void> {
  const { db } = deps;
  const limits = deps.config.auth.rateLimits;

  app.post("/factors", async (req) => {
    const caller = await requireCaller(deps, req);
    const body = obj(req.body);
    if (body.factor_type !== "totp") {
      throw new AuthError(422, "validation_failed", "Only TOTP factors can be enrolled on this server");
    }
    const factors = await loadFactors(db, caller.user.id);
    const verified = factors.filter((f) => f.status === "verified");
    if (verified.length > 0 && caller.auth.aal !== "aal2") {
      throw new AuthError(422, "insufficient_aal", "AAL2 required to enroll a new factor");
    }
    if (factors.length >= MAX_FACTORS) {
      throw new AuthError(422, "validation_failed", "Maximum number of enrolled factors reached, unenroll to continue");
    }
    const friendlyName =
      typeof body.friendly_name === "string" && body.friendly_name !== "" ? body.friendly_name.slice(0, 100) : null;
    if (friendlyName && factors.some((f) => f.friendlyName === friendlyName)) {
      throw new AuthError(
        422,
        "validation_failed",
        `A factor with the friendly name "${friendlyName}" for this user already exists`,
      );
    }
    const issuer = typeof body.issuer === "string" && body.issuer !== "" ? body.issuer.slice(0, 100) : "Workmetrics";
    const secret = newTotpSecret();
    const uri = totpUri({ secret, issuer, account: caller.user.email || caller.user.phone || caller.user.id });
    const [factor] = await db
      .insert(authMfaFactor)
      .values({ userId: caller.user.id, friendlyName, secret: deps.totpSealer.seal(secret) })
      .returning();
    // auth-js prefixes qr_code with "data:image/svg+xml;utf-8,", so the SVG goes out bare.
    const qr = await QRCode.toString(uri, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
    return {
      id: factor.id,
      type: "totp",
      friendly_name: factor.friendlyName ?? "",
      totp: { qr_code: qr, secret, uri },
    };
  });

  app.post<{ Params: { id: string } }>("/factors/:id/challenge", async (req) => {
    const caller = await requireCaller(deps, req);
    await hit(db, limits, "mfa", req.ip);
    const factor = await ownFactor(deps, caller, req.params.id);
    const [challenge] = await db.insert(authMfaChallenge).values({ factorId: factor.id, ip: req.ip }).returning();
    await db.update(authMfaFactor).set({ lastChallengedAt: sql`now()` }).where(eq(authMfaFactor.id, factor.id));
    return {
      id: challenge.id,
      type: "totp",
      expires_at: Math.floor(challenge.createdAt.getTime() / 1000) + CHALLENGE_SECONDS,
    };
  });

  app.post<{ Params: { id: string } }>("/factors/:id/verify", async (req) => {
    const caller = await requireCaller(deps, req);
    await hit(db, limits, "mfa", req.ip);
    const factor = await ownFactor(deps, caller, req.params.id);
    const body = obj(req.body);
    const challengeId = typeof body.challenge_id === "string" ? body.challenge_id : "";
    const code = typeof body.code === "string" ? body.code.trim() : "";
    const [challenge] = /^[0-9a-f-]{36}$/i.test(challengeId)
      ? await db
          .select()
          .from(authMfaChallenge)
          .where(and(eq(authMfaChallenge.id, challengeId), eq(authMfaChallenge.factorId, factor.id)))
      : [];
    if (!challenge) throw new AuthError(404, "mfa_factor_not_found", "MFA challenge not found");
    if (challenge.verifiedAt || Date.now() - challenge.createdAt.getTime() > CHALLENGE_SECONDS * 1000) {
      throw badRequest(
        "mfa_challenge_expired",
        "MFA challenge has expired, verify against another challenge or create a new challenge.",
      );
    }
    const step = verifyTotp(deps.totpSealer.open(factor.secret), code, Date.now());
    // A code is accepted once: its time step must be later than the last one used.
    if (step === null || (factor.lastStep !== null && step <= factor.lastStep)) {
      throw new AuthError(422, "mfa_verification_failed", "Invalid TOTP code entered");
    }
    const claimed = await db
      .update(authMfaFactor)
      .set({ status: "verified", lastStep: step, updatedAt: sql`now()` })
      .where(and(eq(authMfaFactor.id, factor.id), sql`coalesce(${authMfaFactor.lastStep}, -1) < ${step}`))
      .returning({ id: authMfaFactor.id });
    if (!claimed.length) throw new AuthError(422, "mfa_verification_failed", "Invalid TOTP code entered");
    await db.update(authMfaChallenge).set({ verifiedAt: sql`now()` }).where(eq(authMfaChallenge.id, challenge.id));
    return upgradeSession(deps, caller.auth.sessionId, factor.id, "totp");
  });

  app.delete<{ Params: { id: string } }>("/factors/:id", async (req) => {
    const caller = await requireCaller(deps, req);
    const factor = await ownFactor(deps, caller, req.params.id);
    if (factor.status === "verified" && caller.auth.aal !== "aal2") {
      throw new AuthError(422, "insufficient_aal", "AAL2 required to unenroll verified factor");
    }
    await db.delete(authMfaFactor).where(eq(authMfaFactor.id, factor.id));
    // Sessions verified with this factor drop back to aal1 (GoTrue does the same), unless another verified
    // factor remains — then they keep aal2 rather than being locked out.
    const remaining = (await loadFactors(db, caller.user.id)).filter((f) => f.status === "verified");
    if (remaining.length === 0) {
      await db
        .update(authSession)
        .set({ aal: "aal1", factorId: null })
        .where(and(eq(authSession.userId, caller.user.id), eq(authSession.factorId, factor.id)));
    }
    return { id: factor.id };
  });
}
