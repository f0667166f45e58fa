import { MESSAGES, samePath } from "@workmetrics/domain";
import { authSession, authUser } from "@workmetrics/domain/db/schema";
import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { AuthDeps } from "./context.ts";
import { clearSessionCookies, isValidCookieValue, readSessionCookie, setSessionCookie } from "./cookies.ts";
import { NOT_AUTHENTICATED, sessionForToken } from "./guard.ts";
import { decodePayload } from "./jwt.ts";
import { loadFactors, loadProfile, userJson } from "./user-json.ts";

type Body = Record<string, unknown>;

// Events after which the browser holds a session; SIGNED_OUT and USER_DELETED drop it.
const SESSION_EVENTS = new Set([
  "INITIAL_SESSION",
  "SIGNED_IN",
  "TOKEN_REFRESHED",
  "USER_UPDATED",
  "PASSWORD_RECOVERY",
  "MFA_CHALLENGE_VERIFIED",
]);
const END_EVENTS = new Set(["SIGNED_OUT", "USER_DELETED"]);

const fail = (reply: FastifyReply, status: number, code: string, message: string) =>
  reply.code(status).header("cache-control", "no-store").send({ code, message });

// Spec §2 "Shell behaviour" / issue 3 item 4: the session endpoints the web app posts auth events to.
export async function sessionEndpointRoutes(app: FastifyInstance, deps: AuthDeps): Promise<void> {
  const { db, signer } = deps;

  // The web app's supabase-js settings (DESIGN §2.1). The URL is the origin the page was loaded from, so every
  // workspace host talks to itself; PUBLIC_URL when the request carries no usable Host.
  app.get("/api/config", async (req, reply) => {
    const host = req.host;
    const url = host && /^[a-z0-9.-]+(:\d+)?$/i.test(host) ? `${req.protocol}://${host}` : deps.config.publicUrl;
    return reply
      .header("cache-control", "no-store")
      .send({ url, anonKey: await signer.anonKey(), baseDomain: deps.config.baseDomain });
  });

  // Body: {event, session, remember?}. `remember: true` (the login form's "remember me") keeps the cookie
  // 7 days instead of 8 hours; it is stored on the session, so later events (TOKEN_REFRESHED…) need not repeat it.
  app.all("/api/auth/callback", async (req, reply) => {
    if (req.method !== "POST") {
      return fail(reply.header("allow", "POST"), 405, "method_not_allowed", MESSAGES.methodNotAllowed);
    }
    const body = (req.body && typeof req.body === "object" ? req.body : {}) as Body;
    const event = body.event;
    if (typeof event !== "string" || event === "")
      return fail(reply, 400, "auth_event_missing", MESSAGES.authEventMissing);
    if (END_EVENTS.has(event) || (event === "INITIAL_SESSION" && !body.session)) {
      clearSessionCookies(req, reply);
      return reply.header("cache-control", "no-store").send({ ok: true });
    }
    if (!SESSION_EVENTS.has(event)) return fail(reply, 400, "invalid_session_data", MESSAGES.invalidSessionData);
    const session = body.session;
    if (!session) return fail(reply, 400, "auth_session_missing", MESSAGES.authSessionMissing);
    const token = typeof session === "object" ? (session as Body).access_token : undefined;
    if (typeof token !== "string" || !isValidCookieValue(token) || !decodePayload(token)) {
      return fail(reply, 400, "invalid_session_data", MESSAGES.invalidSessionData);
    }
    // The token must be ours and its session live; it may be a little stale (the page refreshes it).
    const auth = await sessionForToken(db, signer, token, { ignoreExpiry: true, allowAal1: true });
    if (!auth) return fail(reply, 400, "invalid_session_data", MESSAGES.invalidSessionData);
    let remember: boolean;
    if (typeof body.remember === "boolean") {
      remember = body.remember;
      await db.update(authSession).set({ remember }).where(eq(authSession.id, auth.sessionId));
    } else {
      const [row] = await db
        .select({ remember: authSession.remember })
        .from(authSession)
        .where(eq(authSession.id, auth.sessionId));
      remember = row?.remember ?? false;
    }
    setSessionCookie(req, reply, token, remember);
    return reply.header("cache-control", "no-store").send({ ok: true });
  });

  // The signed-in user: the auth user, and the database user with role, workspace, tier and features.
  app.get("/api/auth/user", async (req, reply) => {
    reply.header("cache-control", "no-store");
    const auth = await req.server.authGuard.authenticate(req);
    if (!auth) return reply.code(401).send(NOT_AUTHENTICATED);
    const [user] = await db.select().from(authUser).where(eq(authUser.id, auth.userId));
    if (!user) return reply.code(401).send(NOT_AUTHENTICATED);
    return {
      user: userJson(user, await loadFactors(db, user.id)),
      profile: await loadProfile(db, user.id),
      is_platform_operator: user.isPlatformOperator,
      aal: auth.aal,
    };
  });

  // Signs the session out on the server (not only in this browser), clears the cookies and goes back.
  app.get("/api/auth/logout", async (req, reply) => {
    const token = readSessionCookie(req) ?? "";
    const auth = token ? await sessionForToken(db, signer, token, { ignoreExpiry: true, allowAal1: true }) : null;
    if (auth) await db.delete(authSession).where(eq(authSession.id, auth.sessionId));
    clearSessionCookies(req, reply);
    return reply.header("cache-control", "no-store").redirect(samePath((req.query as Body).returnTo), 302);
  });

  // Spec §2: any other auth endpoint value is a 404.
  app.all("/api/auth/*", async (req, reply) =>
    fail(reply, 404, "not_found", `No auth endpoint ${req.url.split("?")[0].slice("/api/auth/".length, 80)}`),
  );
  app.all("/api/auth", async (_req, reply) => fail(reply, 404, "not_found", "No auth endpoint"));
}
