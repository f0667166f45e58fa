import { MESSAGES } from "@workmetrics/domain";
import { authUser } from "@workmetrics/domain/db/schema";
import type { FastifyInstance } from "fastify";
import { AuthError, badRequest } from "./auth-error.ts";
import type { AuthDeps } from "./context.ts";
import { findByEmail, findByPhone, isUniqueViolation, normaliseEmail, normalisePhone } from "./lookup.ts";
import { parsePkce, safeRedirect, sendTokenMail } from "./one-time-tokens.ts";
import { hashPassword, verifyPassword } from "./password.ts";
import { assertStrongPassword } from "./password-policy.ts";
import { hit } from "./rate-limit.ts";
import { clientMeta } from "./request.ts";
import { isDeactivated, refreshGrant, startSession } from "./sessions.ts";
import { obfuscatedUserJson, userJson } from "./user-json.ts";
import { pkceGrant } from "./verify.ts";

type Body = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

const invalidCredentials = () => badRequest("invalid_credentials", "Invalid login credentials");

// Spent on unknown accounts so a wrong address takes as long as a wrong password (no enumeration by timing).
let dummyHash: Promise<string> | null = null;

// POST /signup and POST /token (issue 3 items 1–2).
export async function tokenRoutes(app: FastifyInstance, deps: AuthDeps): Promise<void> {
  const { db, config } = deps;
  const limits = config.auth.rateLimits;

  app.post("/signup", async (req) => {
    const body = obj(req.body) as Body;
    const meta = clientMeta(req);
    await hit(db, limits, "sign_in", meta.ip);
    if (str(body.phone) && !str(body.email)) {
      throw new AuthError(422, "phone_provider_disabled", "Phone signups are disabled");
    }
    const password = str(body.password);
    if (!str(body.email) || !password) throw badRequest("validation_failed", MESSAGES.emailOrPhoneRequired);
    const email = normaliseEmail(body.email);
    assertStrongPassword(password);
    const data = obj(body.data);
    const pkce = parsePkce(body);
    const redirectTo = safeRedirect(deps, (req.query as Body).redirect_to, "/auth/success");
    await hit(db, limits, "email_sent", meta.ip);
    // Hashing first keeps every branch equally slow.
    const hashed = await hashPassword(password);
    const existing = await findByEmail(db, email);
    if (existing) {
      if (existing.emailConfirmedAt) return obfuscatedUserJson(email, data);
      await sendTokenMail(deps, existing, "signup", { to: email, redirectTo, pkce });
      return userJson(existing);
    }
    let created: typeof authUser.$inferSelect;
    try {
      [created] = await db
        .insert(authUser)
        .values({
          email,
          encryptedPassword: hashed,
          appMetadata: { provider: "email", providers: ["email"] },
          userMetadata: data,
        })
        .returning();
    } catch (err) {
      if (isUniqueViolation(err)) return obfuscatedUserJson(email, data);
      throw err;
    }
    await sendTokenMail(deps, created, "signup", { to: email, redirectTo, pkce });
    const fresh = (await findByEmail(db, email)) ?? created;
    return userJson(fresh);
  });

  app.post("/token", async (req) => {
    const grant = (req.query as Body).grant_type;
    const body = obj(req.body) as Body;
    const meta = clientMeta(req);
    switch (grant) {
      case "password": {
        await hit(db, limits, "sign_in", meta.ip);
        const password = str(body.password);
        const email = str(body.email);
        const phone = str(body.phone);
        if ((!email && !phone) || !password) throw badRequest("validation_failed", MESSAGES.emailOrPhoneRequired);
        const user = email ? await findByEmail(db, email.trim()) : await findByPhone(db, normalisePhone(phone ?? ""));
        if (!user?.encryptedPassword) {
          dummyHash ??= hashPassword("not-a-real-password-0");
          await verifyPassword(await dummyHash, password);
          throw invalidCredentials();
        }
        if (!(await verifyPassword(user.encryptedPassword, password))) throw invalidCredentials();
        // Spec §4: an e-mail sign-in counts only with the e-mail confirmed, a phone sign-in with the phone confirmed.
        if (email && !user.emailConfirmedAt) throw badRequest("email_not_confirmed", "Email not confirmed");
        if (phone && !user.phoneConfirmedAt) throw badRequest("phone_not_confirmed", "Phone not confirmed");
        if (await isDeactivated(db, user)) throw badRequest("user_banned", "User is banned");
        return startSession(deps, user, "password", meta);
      }
      case "refresh_token": {
        await hit(db, limits, "token_refresh", meta.ip);
        const token = str(body.refresh_token);
        if (!token) throw badRequest("refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
        return refreshGrant(deps, token);
      }
      case "pkce": {
        await hit(db, limits, "sign_in", meta.ip);
        const code = str(body.auth_code);
        const verifier = str(body.code_verifier);
        if (!code || !verifier)
          throw badRequest(
            "validation_failed",
            "invalid request: both auth code and code verifier should be non-empty",
          );
        return pkceGrant(deps, meta, code, verifier);
      }
      case "id_token":
        await hit(db, limits, "sign_in", meta.ip);
        throw badRequest(
          "provider_disabled",
          "Sign-in with an ID token is not available: no OpenID Connect provider is configured on this server",
        );
      default:
        throw badRequest("validation_failed", "unsupported_grant_type");
    }
  });
}
