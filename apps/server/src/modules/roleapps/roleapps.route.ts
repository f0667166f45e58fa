import { BRAND, decideHost, parseHost, ROLE, type RoleApp, workspaceColor } from "@workmetrics/domain";
import { authHandoff, authUser } from "@workmetrics/domain/db/schema";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../../config.ts";
import { randomToken, sha256 } from "../../platform/auth/crypto.ts";
import { NOT_AUTHENTICATED } from "../../platform/auth/guard.ts";
import { clientMeta } from "../../platform/auth/request.ts";
import { isDeactivated, startSessionTx } from "../../platform/auth/sessions.ts";
import type { Db, Tx } from "../../platform/db/database.ts";
import { manifestFor, serviceWorker } from "./pwa.ts";

// Issue 22 "One app shell": signing in once across a workspace's hosts, and each app installable.
export const HANDOFF_TTL_SECONDS = 60;
const APPS: RoleApp[] = ["main", "driver", "warehouse", "pos"];

const fail = (reply: FastifyReply, status: number, code: string, message: string, field?: string) =>
  reply
    .code(status)
    .header("cache-control", "no-store")
    .send({ code, message, ...(field ? { details: [{ field, message }] } : {}) });

type Member = { role_id: number; slug: string; tier_id: number; name: string; primary_color: string | null };

async function memberOf(db: Db | Tx, userId: string): Promise<Member | null> {
  const res = await db.execute(sql`select u.role_id, w.slug, w.tier_id, w.name, w.primary_color
    from "user" u join workspace w on w.id = u.workspace_id
    where u.id = ${userId}::uuid and u.active order by u.created_at limit 1`);
  return (res.rows[0] as Member | undefined) ?? null;
}

const hostUser = (m: Member) => ({
  roleId: Number(m.role_id),
  workspaceSlug: m.slug,
  tierId: Number(m.tier_id),
  isOwner: Number(m.role_id) === ROLE.Owner,
});

export async function roleAppRoutes(app: FastifyInstance, opts: { db: Db; config: Config }): Promise<void> {
  const { db, config } = opts;
  const base = config.baseDomain;

  // The signed-in side asks for a code for another host of its workspace: {app} → {code, slug, expires_in}. The
  // code is single-use, lives 60 s and only its SHA-256 is kept. The host rules are checked here too, so the
  // menu never offers what the other host would refuse.
  app.post("/api/auth/handoff", async (req, reply) => {
    reply.header("cache-control", "no-store");
    const auth = await req.server.authGuard.authenticate(req);
    if (!auth) return reply.code(401).send(NOT_AUTHENTICATED);
    const target = (req.body as { app?: unknown } | null)?.app ?? "main";
    if (typeof target !== "string" || !APPS.includes(target as RoleApp)) {
      return fail(reply, 422, "validation_failed", "The app is main, driver, warehouse or pos", "app");
    }
    const member = await memberOf(db, auth.userId);
    if (!member) return fail(reply, 403, "no_workspace", "Your account belongs to no workspace");
    const host = workspaceHostName(member.slug, target as RoleApp);
    const rule = decideHost({ host, path: "/dashboard", baseDomain: base, user: hostUser(member) });
    if (rule.action === "signOut") {
      return fail(reply, 403, "host_refused", rule.message ?? "Your account cannot open that app");
    }
    const code = randomToken(32);
    await db.insert(authHandoff).values({
      codeHash: sha256(code),
      userId: auth.userId,
      app: target,
      expiresAt: new Date(Date.now() + HANDOFF_TTL_SECONDS * 1000),
    });
    // Spent and expired codes are swept as new ones are made.
    await db.execute(sql`delete from auth_handoff where expires_at < now() - interval '1 hour'`);
    return reply.send({ code, slug: member.slug, app: target, expires_in: HANDOFF_TTL_SECONDS });
  });

  // The other host exchanges the code for a session of the same person: {code} → a token response as
  // /auth/v1/token gives (the page hands it to supabase-js). Refused when spent, expired, made for another host,
  // or when this host's rules refuse the person (a POS host still refuses a non-POS user).
  app.post("/api/auth/handoff/exchange", async (req, reply) => {
    reply.header("cache-control", "no-store");
    const code = (req.body as { code?: unknown } | null)?.code;
    if (typeof code !== "string" || code.length < 20 || code.length > 200) {
      return fail(reply, 422, "validation_failed", "The sign-in link is incomplete", "code");
    }
    const host = parseHost(req.headers.host ?? "", base);
    const hostApp: RoleApp | null = host.kind === "workspace" ? host.app : host.kind === "bare" ? "main" : null;
    const deps = req.server.authDeps;
    const result = await db.transaction(async (tx) => {
      // Taken once: the row is marked used in the same statement that reads it.
      const res = await tx.execute(sql`update auth_handoff set used_at = now()
        where code_hash = ${sha256(code)} and used_at is null
        returning user_id::text, app, expires_at < now() as expired`);
      const row = res.rows[0] as { user_id: string; app: string; expired: boolean } | undefined;
      if (!row)
        return { error: [401, "handoff_invalid", "This sign-in link was already used or is not valid"] as const };
      if (row.expired)
        return { error: [401, "handoff_expired", "This sign-in link has expired: sign in again"] as const };
      if (hostApp !== row.app) {
        return { error: [403, "handoff_wrong_host", "This sign-in link is for another app's address"] as const };
      }
      const [user] = await tx.select().from(authUser).where(eq(authUser.id, row.user_id));
      if (!user || (await isDeactivated(tx, user))) {
        return { error: [401, "handoff_invalid", "This account cannot sign in"] as const };
      }
      const member = await memberOf(tx, user.id);
      if (!member) return { error: [403, "no_workspace", "Your account belongs to no workspace"] as const };
      const rule = decideHost({
        host: req.headers.host ?? "",
        path: "/dashboard",
        baseDomain: base,
        user: hostUser(member),
      });
      if (rule.action === "signOut") {
        return { error: [403, "host_refused", rule.message ?? "Your account cannot open this app"] as const };
      }
      return { session: await startSessionTx(deps, tx, user, "handoff", clientMeta(req)) };
    });
    if ("error" in result && result.error) {
      const [status, errCode, message] = result.error;
      return fail(reply, status, errCode, message);
    }
    return reply.send(result.session);
  });

  // GET /manifest.webmanifest: this host's app — its name, start page, icons and the workspace's colour.
  app.get("/manifest.webmanifest", async (req, reply) => {
    const host = parseHost(req.headers.host ?? "", base);
    const hostApp: RoleApp = host.kind === "workspace" ? host.app : "main";
    let ws: { name: string; color: string | null } | null = null;
    if (host.kind === "workspace") {
      const res = await db.execute(sql`select name, primary_color from workspace where slug = ${host.slug} limit 1`);
      const row = res.rows[0] as { name: string; primary_color: string | null } | undefined;
      if (row) ws = { name: row.name, color: workspaceColor(row.primary_color) };
    }
    return reply
      .header("cache-control", "no-cache")
      .type("application/manifest+json; charset=utf-8")
      .send(JSON.stringify(manifestFor(hostApp, ws, BRAND.primary)));
  });

  // GET /sw.js: the service worker of this host's app (scope /).
  app.get("/sw.js", async (req: FastifyRequest, reply) => {
    const host = parseHost(req.headers.host ?? "", base);
    const hostApp: RoleApp = host.kind === "workspace" ? host.app : "main";
    return reply
      .header("cache-control", "no-cache")
      .header("service-worker-allowed", "/")
      .type("text/javascript; charset=utf-8")
      .send(serviceWorker(config.webDist, hostApp));
  });

  function workspaceHostName(slug: string, target: RoleApp): string {
    return target === "main" ? `${slug}.${base}` : `${slug}.${target}.${base}`;
  }
}
