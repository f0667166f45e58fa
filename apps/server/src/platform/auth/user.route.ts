import { authSession, authUser } from "@workmetrics/domain/db/schema";
import { and, eq, ne, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { AuthError, badRequest } from "./auth-error.ts";
import type { AuthDeps } from "./context.ts";
import { findByEmail, normaliseEmail } from "./lookup.ts";
import { consumeNonce, parsePkce, safeRedirect, sendTokenMail } from "./one-time-tokens.ts";
import { hashPassword, verifyPassword } from "./password.ts";
import { assertStrongPassword } from "./password-policy.ts";
import { hit } from "./rate-limit.ts";
import { type Caller, requireCaller } from "./request.ts";
import { type SignOutScope, signOut } from "./sessions.ts";
import { loadFactors, userJson } from "./user-json.ts";

type Body = Record<string, unknown>;
const obj = (v: unknown): Body => (v && typeof v === "object" && !Array.isArray(v) ? (v as Body) : {});

// GoTrue merges metadata updates key by key; a null value removes the key.
function mergeMetadata(current: unknown, update: Body): Body {
  const merged: Body = { ...obj(current) };
  for (const [k, v] of Object.entries(update)) {
    if (v === null) delete merged[k];
    else merged[k] = v;
  }
  return merged;
}

// Issue 3 item 1: changing e-mail or password needs a sign-in within the window, or the mailed nonce.
async function assertRecentOrNonce(deps: AuthDeps, caller: Caller, nonce: unknown): Promise<void> {
  const lastAuth = Math.max(0, ...caller.auth.claims.amr.map((a) => a.timestamp));
  const [session] = await deps.db
    .select({ amr: authSession.amr })
    .from(authSession)
    .where(eq(authSession.id, caller.auth.sessionId));
  const sessionAuth = Math.max(lastAuth, ...(session?.amr ?? []).map((a) => a.timestamp));
  if (Date.now() / 1000 - sessionAuth <= deps.config.auth.reauthWindowSeconds) return;
  if (typeof nonce !== "string" || nonce === "") {
    throw badRequest("reauthentication_needed", "Password update requires reauthentication");
  }
  if (!(await consumeNonce(deps.db, caller.user, nonce))) {
    throw badRequest("reauthentication_not_valid", "Requires reauthentication");
  }
}

export async function userRoutes(app: FastifyInstance, deps: AuthDeps): Promise<void> {
  const { db, config } = deps;

  app.get("/user", async (req) => {
    const { user } = await requireCaller(deps, req);
    return userJson(user, await loadFactors(db, user.id));
  });

  app.put("/user", async (req) => {
    const caller = await requireCaller(deps, req);
    const body = obj(req.body);
    const set: Partial<typeof authUser.$inferInsert> = {};
    if (typeof body.phone === "string" && body.phone !== (caller.user.phone ?? "")) {
      throw new AuthError(
        422,
        "phone_provider_disabled",
        "Phone changes are not available: no SMS provider is configured",
      );
    }
    const newEmail = typeof body.email === "string" && body.email !== "" ? normaliseEmail(body.email) : null;
    const emailChanges = newEmail !== null && newEmail !== (caller.user.email ?? "").toLowerCase();
    const password = typeof body.password === "string" && body.password !== "" ? body.password : null;
    if (password !== null) {
      assertStrongPassword(password);
      if (caller.user.encryptedPassword && (await verifyPassword(caller.user.encryptedPassword, password))) {
        throw new AuthError(422, "same_password", "New password should be different from the old password.");
      }
    }
    if (emailChanges && (await findByEmail(db, newEmail))) {
      throw new AuthError(422, "email_exists", "A user with this email address has already been registered");
    }
    if (password !== null || emailChanges) {
      const factors = await loadFactors(db, caller.user.id);
      if (factors.some((f) => f.status === "verified") && caller.auth.aal !== "aal2") {
        throw new AuthError(
          422,
          "insufficient_aal",
          "AAL2 session is required to update email or password when MFA is enabled.",
        );
      }
      await assertRecentOrNonce(deps, caller, body.nonce);
    }
    if (password !== null) set.encryptedPassword = await hashPassword(password);
    if (body.data && typeof body.data === "object")
      set.userMetadata = mergeMetadata(caller.user.userMetadata, obj(body.data));
    if (Object.keys(set).length) {
      await db
        .update(authUser)
        .set({ ...set, updatedAt: sql`now()` })
        .where(eq(authUser.id, caller.user.id));
    }
    if (password !== null) {
      // A new password signs out every other session of the user.
      await db
        .delete(authSession)
        .where(and(eq(authSession.userId, caller.user.id), ne(authSession.id, caller.auth.sessionId)));
    }
    if (emailChanges) {
      await hit(db, config.auth.rateLimits, "email_sent", req.ip);
      await db.update(authUser).set({ emailChange: newEmail }).where(eq(authUser.id, caller.user.id));
      const [pending] = await db.select().from(authUser).where(eq(authUser.id, caller.user.id));
      const redirectTo = safeRedirect(deps, (req.query as Body).redirect_to, "/auth/success");
      // The new address must be confirmed before it replaces the old one.
      await sendTokenMail(deps, { ...pending, emailChangeSentAt: null }, "email_change", {
        to: newEmail,
        redirectTo,
        pkce: parsePkce(body),
      });
    }
    const [updated] = await db.select().from(authUser).where(eq(authUser.id, caller.user.id));
    return userJson(updated, await loadFactors(db, updated.id));
  });

  app.get("/reauthenticate", async (req) => {
    const caller = await requireCaller(deps, req);
    await hit(db, config.auth.rateLimits, "otp", req.ip);
    await hit(db, config.auth.rateLimits, "email_sent", req.ip);
    if (!caller.user.email) throw badRequest("validation_failed", "Reauthentication requires an email address");
    await sendTokenMail(deps, { ...caller.user, reauthenticationSentAt: null }, "reauthentication", {
      to: caller.user.email,
      redirectTo: null,
    });
    return {};
  });

  app.post("/logout", async (req, reply) => {
    const scope = (obj(req.query).scope ?? "global") as SignOutScope;
    if (!["global", "local", "others"].includes(scope)) {
      throw badRequest("validation_failed", "Unsupported logout scope, must be one of global, local or others");
    }
    const caller = await requireCaller(deps, req);
    await signOut(db, caller.user.id, caller.auth.sessionId, scope);
    return reply.code(204).send();
  });

  app.get("/settings", async () => ({
    external: { email: true, phone: false, anonymous_users: false, saml: false },
    disable_signup: false,
    mailer_autoconfirm: false,
    phone_autoconfirm: false,
    sms_provider: "",
    saml_enabled: false,
    mfa_enabled: true,
  }));

  // No OAuth provider is configured on this server, so every provider is refused plainly.
  app.get("/authorize", async (req) => {
    const provider = obj(req.query).provider;
    if (typeof provider !== "string" || provider === "") {
      throw badRequest("validation_failed", "Unsupported provider: Provider could not be found");
    }
    throw badRequest(
      "provider_disabled",
      `Unsupported provider: ${provider.slice(0, 40)} is not enabled on this server`,
    );
  });
}
