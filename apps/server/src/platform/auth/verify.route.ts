import { authUser } from "@workmetrics/domain/db/schema";
import type { FastifyInstance } from "fastify";
import { AuthError, badRequest } from "./auth-error.ts";
import type { AuthDeps } from "./context.ts";
import { findByEmail, isUniqueViolation, normaliseEmail } from "./lookup.ts";
import { isVerifyType, parsePkce, safeRedirect, sendTokenMail, type VerifyType } from "./one-time-tokens.ts";
import { hit } from "./rate-limit.ts";
import { clientMeta, requireOperator } from "./request.ts";
import { isDeactivated } from "./sessions.ts";
import { userJson } from "./user-json.ts";
import { verifyToken } from "./verify.ts";

type Body = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const obj = (v: unknown): Body => (v && typeof v === "object" && !Array.isArray(v) ? (v as Body) : {});

// Where a followed link lands in the web app: recovery on the reset page, the rest on the success page.
const landing = (type: VerifyType) => (type === "recovery" ? "/auth/reset" : "/auth/success");

// verify, otp, recover, resend, invite (issue 3 item 1). None of them tells whether an address has an account.
export async function verifyRoutes(app: FastifyInstance, deps: AuthDeps): Promise<void> {
  const { db, config } = deps;
  const limits = config.auth.rateLimits;

  // The e-mailed link: GoTrue answers with a redirect carrying the session in the fragment (implicit flow) or an
  // auth code in the query (PKCE), and errors the same way, so the web app can show them.
  app.get("/verify", async (req, reply) => {
    const q = obj(req.query);
    const type = isVerifyType(q.type) ? q.type : "signup";
    const target = safeRedirect(deps, q.redirect_to, landing(type));
    const meta = clientMeta(req);
    const fail = (err: AuthError) => {
      const params = new URLSearchParams({
        error: err.status === 429 ? "too_many_requests" : "access_denied",
        error_code: err.code,
        error_description: err.message,
      });
      return reply.redirect(`${target}#${params.toString()}`, 303);
    };
    try {
      await hit(db, limits, "verify", meta.ip);
      const token = str(q.token);
      if (!token || !isVerifyType(q.type))
        throw new AuthError(403, "otp_expired", "Email link is invalid or has expired");
      const outcome = await verifyToken(deps, meta, type, { tokenHash: token }, { allowPkce: true });
      if (outcome.kind === "code") {
        const url = new URL(target);
        url.searchParams.set("code", outcome.code);
        return reply.redirect(url.toString(), 303);
      }
      const s = outcome.session;
      const params = new URLSearchParams({
        access_token: s.access_token,
        expires_at: String(s.expires_at),
        expires_in: String(s.expires_in),
        refresh_token: s.refresh_token,
        token_type: s.token_type,
        type,
      });
      return reply.redirect(`${target}#${params.toString()}`, 303);
    } catch (err) {
      if (err instanceof AuthError) return fail(err);
      throw err;
    }
  });

  app.post("/verify", async (req) => {
    const body = obj(req.body);
    const meta = clientMeta(req);
    await hit(db, limits, "verify", meta.ip);
    if (!isVerifyType(body.type)) {
      throw badRequest(
        "validation_failed",
        "Verify requires a type of signup, invite, magiclink, recovery, email_change or email",
      );
    }
    const tokenHash = str(body.token_hash);
    const token = str(body.token);
    const email = str(body.email);
    let outcome: Awaited<ReturnType<typeof verifyToken>>;
    if (tokenHash) {
      outcome = await verifyToken(deps, meta, body.type, { tokenHash }, { allowPkce: false });
    } else if (token && email) {
      outcome = await verifyToken(
        deps,
        meta,
        body.type,
        { address: normaliseEmail(email), code: token.trim() },
        { allowPkce: false },
      );
    } else if (str(body.phone)) {
      throw new AuthError(
        422,
        "phone_provider_disabled",
        "Phone verification is not available: no SMS provider is configured",
      );
    } else {
      throw badRequest("validation_failed", "Verify requires either a token_hash, or a token with an email");
    }
    if (outcome.kind !== "session") throw new AuthError(500, "unexpected_failure", "Unexpected verification outcome");
    return outcome.session;
  });

  // Magic link / e-mailed code. An unknown address with create_user=false gets the same answer as a known one.
  app.post("/otp", async (req) => {
    const body = obj(req.body);
    const meta = clientMeta(req);
    await hit(db, limits, "otp", meta.ip);
    if (str(body.phone) && !str(body.email)) {
      throw new AuthError(
        422,
        "phone_provider_disabled",
        "Phone sign-in is not available: no SMS provider is configured",
      );
    }
    const email = normaliseEmail(body.email);
    await hit(db, limits, "email_sent", meta.ip);
    const pkce = parsePkce(body);
    const redirectTo = safeRedirect(deps, (req.query as Body).redirect_to, "/auth/success");
    let user = await findByEmail(db, email);
    if (!user && body.create_user !== false) {
      try {
        [user] = await db
          .insert(authUser)
          .values({ email, appMetadata: { provider: "email", providers: ["email"] }, userMetadata: obj(body.data) })
          .returning();
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        user = await findByEmail(db, email);
      }
    }
    if (user && !(await isDeactivated(db, user))) {
      await sendTokenMail(deps, user, "magiclink", { to: email, redirectTo, pkce });
    }
    return {};
  });

  app.post("/recover", async (req) => {
    const body = obj(req.body);
    const meta = clientMeta(req);
    await hit(db, limits, "otp", meta.ip);
    const email = normaliseEmail(body.email);
    await hit(db, limits, "email_sent", meta.ip);
    const pkce = parsePkce(body);
    const redirectTo = safeRedirect(deps, (req.query as Body).redirect_to, "/auth/reset");
    const user = await findByEmail(db, email);
    if (user && !(await isDeactivated(db, user))) {
      await sendTokenMail(deps, user, "recovery", { to: email, redirectTo, pkce });
    }
    return {};
  });

  app.post("/resend", async (req) => {
    const body = obj(req.body);
    const meta = clientMeta(req);
    await hit(db, limits, "otp", meta.ip);
    if (body.type === "sms" || body.type === "phone_change") {
      throw new AuthError(
        422,
        "phone_provider_disabled",
        "Phone verification is not available: no SMS provider is configured",
      );
    }
    if (body.type !== "signup" && body.type !== "email_change") {
      throw badRequest("validation_failed", "Missing one of these types: signup, email_change, sms, phone_change");
    }
    const email = normaliseEmail(body.email);
    await hit(db, limits, "email_sent", meta.ip);
    const redirectTo = safeRedirect(deps, (req.query as Body).redirect_to, "/auth/success");
    const user = await findByEmail(db, email);
    if (user && body.type === "signup" && !user.emailConfirmedAt) {
      await sendTokenMail(deps, user, "signup", { to: email, redirectTo, pkce: parsePkce(body) });
    }
    if (user && body.type === "email_change" && user.emailChange) {
      await sendTokenMail(deps, user, "email_change", {
        to: user.emailChange,
        redirectTo,
        pkce: parsePkce(body),
      });
    }
    return { message_id: null };
  });

  // GoTrue keeps invites for the service role; here they are for platform operators.
  app.post("/invite", async (req) => {
    await requireOperator(deps, req);
    const body = obj(req.body);
    const email = normaliseEmail(body.email);
    await hit(db, limits, "email_sent", req.ip);
    const redirectTo = safeRedirect(deps, (req.query as Body).redirect_to, "/auth/reset");
    if (await findByEmail(db, email)) {
      throw new AuthError(422, "email_exists", "A user with this email address has already been registered");
    }
    let invited: typeof authUser.$inferSelect;
    try {
      [invited] = await db
        .insert(authUser)
        .values({ email, appMetadata: { provider: "email", providers: ["email"] }, userMetadata: obj(body.data) })
        .returning();
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new AuthError(422, "email_exists", "A user with this email address has already been registered");
      }
      throw err;
    }
    await sendTokenMail(deps, invited, "invite", { to: email, redirectTo });
    return userJson((await findByEmail(db, email)) ?? invited);
  });
}
