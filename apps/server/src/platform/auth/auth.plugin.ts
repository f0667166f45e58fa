import cookie from "@fastify/cookie";
import type { FastifyError, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../../config.ts";
import type { Db } from "../db/database.ts";
import { databaseTrouble, RETRY_AFTER_SECONDS } from "../db/database-errors.ts";
import { MAIL_JOB } from "../jobs/mail.ts";
import type { Jobs } from "../jobs/worker.ts";
import { adminRoutes } from "./admin.route.ts";
import { AuthError, sendAuthError } from "./auth-error.ts";
import type { AuthDeps } from "./context.ts";
import { sealer } from "./crypto.ts";
import { createGuard } from "./guard.ts";
import { createSigner } from "./jwt.ts";
import type { Mailer } from "./mail.ts";
import { mailboxRoutes } from "./mailbox.route.ts";
import { mfaRoutes } from "./mfa.route.ts";
import { sessionEndpointRoutes } from "./session-endpoints.route.ts";
import { tokenRoutes } from "./token.route.ts";
import { userRoutes } from "./user.route.ts";
import { verifyRoutes } from "./verify.route.ts";

// The GoTrue-compatible service under /auth/v1, with GoTrue's error shapes and a JSON parser that, like GoTrue,
// takes an empty body (auth-js posts logout with none).
async function goTrue(app: FastifyInstance, opts: AuthDeps & { prefix?: string }): Promise<void> {
  const { prefix: _prefix, ...deps } = opts;
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new AuthError(400, "bad_json", "Could not parse request body as JSON"), undefined);
    }
  });
  app.addHook("onSend", async (_req, reply) => {
    reply.header("x-supabase-api-version", "2024-01-01").header("cache-control", "no-store");
  });
  app.setErrorHandler((err: FastifyError | AuthError, req, reply) => {
    if (err instanceof AuthError) return sendAuthError(req, reply, err);
    const status = (err as FastifyError).statusCode ?? 500;
    if (status < 500) return sendAuthError(req, reply, new AuthError(status, "validation_failed", err.message));
    // A lost connection or a statement past its time is retryable (auth-js retries 502/503/504), not a failure.
    const trouble = databaseTrouble(err);
    if (trouble) {
      reply.header("retry-after", String(RETRY_AFTER_SECONDS));
      return sendAuthError(req, reply, new AuthError(trouble.status, "unexpected_failure", trouble.message));
    }
    req.log.error({ err }, "auth request failed");
    return sendAuthError(req, reply, new AuthError(500, "unexpected_failure", "Unexpected failure, please try again"));
  });
  app.setNotFoundHandler((req, reply) =>
    sendAuthError(
      req,
      reply,
      new AuthError(404, "not_found", `No auth endpoint ${req.method} ${req.url.split("?")[0]}`),
    ),
  );
  await app.register(tokenRoutes, deps);
  await app.register(verifyRoutes, deps);
  await app.register(userRoutes, deps);
  await app.register(mfaRoutes, deps);
  await app.register(adminRoutes, deps);
}

declare module "fastify" {
  interface FastifyInstance {
    authDeps: AuthDeps;
  }
}

// Issue 3: the auth service, the session endpoints, the dev mailbox and the guard every protected route uses
// (`app.authGuard.requireAuth` as a preHandler). Wrapped with fastify-plugin so the guard and cookies reach the
// whole app, including the SPA fallback's page redirect.
export const authPlugin = fp(
  async (app: FastifyInstance, opts: { config: Config; db: Db; mailer: Mailer; jobs: Jobs }) => {
    const { config, db } = opts;
    const signer = createSigner(config.jwtSecret, config.publicUrl);
    const deps: AuthDeps = {
      db,
      config,
      signer,
      totpSealer: sealer(config.jwtSecret, "totp-secret"),
      mailer: opts.mailer,
      jobs: opts.jobs,
    };
    await app.register(cookie);
    app.decorateRequest("auth", null);
    app.decorate("authGuard", createGuard(db, signer, config.auth.redirectPath));
    // Other modules that create accounts (company sign-up, invitations) send the same mails through these.
    app.decorate("authDeps", deps);
    await app.register(goTrue, { ...deps, prefix: "/auth/v1" });
    await app.register(sessionEndpointRoutes, deps);
    if (!config.production && !config.smtpUrl) {
      // The mailbox shows mail once the outbox has sent what was due (the worker, a moment after the command).
      const settled = () => opts.jobs.drained(5000, [MAIL_JOB]).catch(() => undefined);
      await app.register(mailboxRoutes, { db, settled });
    }
  },
  { name: "workmetrics-auth" },
);
