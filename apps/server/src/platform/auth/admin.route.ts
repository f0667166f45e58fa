import { authMfaFactor, authUser } from "@workmetrics/domain/db/schema";
import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { isUuid } from "../db/database.ts";
import { AuthError, badRequest } from "./auth-error.ts";
import type { AuthDeps } from "./context.ts";
import { findByEmail, findByPhone, isUniqueViolation, normaliseEmail, normalisePhone } from "./lookup.ts";
import { hashPassword } from "./password.ts";
import { assertStrongPassword } from "./password-policy.ts";
import { requireOperator } from "./request.ts";
import { endUserSessions } from "./sessions.ts";
import { factorJson, loadFactors, userJson } from "./user-json.ts";

type Body = Record<string, unknown>;
const obj = (v: unknown): Body => (v && typeof v === "object" && !Array.isArray(v) ? (v as Body) : {});

// Go duration strings as GoTrue takes them for ban_duration ("24h", "1h30m", "none").
export function parseBanDuration(value: string): number | null {
  if (value === "none") return 0;
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(value);
  if (!m || value === "") return null;
  return (Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) * 1000;
}

const notFound = () => new AuthError(404, "user_not_found", "User not found");
const emailExists = () =>
  new AuthError(422, "email_exists", "A user with this email address has already been registered");

// Shared by create and update: turns GoTrue's admin attributes into column values.
async function attributes(deps: AuthDeps, body: Body, existingId: string | null) {
  const set: Partial<typeof authUser.$inferInsert> = {};
  if (typeof body.email === "string") {
    const email = normaliseEmail(body.email);
    const other = await findByEmail(deps.db, email);
    if (other && other.id !== existingId) throw emailExists();
    set.email = email;
  }
  if (typeof body.phone === "string" && body.phone !== "") {
    const phone = normalisePhone(body.phone);
    const other = await findByPhone(deps.db, phone);
    if (other && other.id !== existingId)
      throw new AuthError(422, "validation_failed", "A user with this phone number has already been registered");
    set.phone = phone;
  }
  if (typeof body.password === "string") {
    assertStrongPassword(body.password);
    set.encryptedPassword = await hashPassword(body.password);
  }
  if (body.email_confirm === true) set.emailConfirmedAt = new Date();
  if (body.phone_confirm === true) set.phoneConfirmedAt = new Date();
  if (body.user_metadata && typeof body.user_metadata === "object") set.userMetadata = obj(body.user_metadata);
  if (body.app_metadata && typeof body.app_metadata === "object") set.appMetadata = obj(body.app_metadata);
  let banned = false;
  if (typeof body.ban_duration === "string") {
    const ms = parseBanDuration(body.ban_duration);
    if (ms === null) throw badRequest("validation_failed", "invalid format for ban duration");
    set.bannedUntil = ms === 0 ? null : new Date(Date.now() + ms);
    banned = ms > 0;
  }
  return { set, banned };
}

// /admin/users for platform operators (issue 3 item 1); GoTrue's shapes, so GoTrueAdminApi works.
export async function adminRoutes(app: FastifyInstance, deps: AuthDeps): Promise<void> {
  const { db } = deps;

  app.get("/admin/users", async (req, reply) => {
    await requireOperator(deps, req);
    const q = obj(req.query);
    const page = Math.max(1, Number.parseInt(String(q.page ?? "1"), 10) || 1);
    const perPage = Math.min(1000, Math.max(1, Number.parseInt(String(q.per_page ?? "50"), 10) || 50));
    const live = isNull(authUser.deletedAt);
    const [{ total }] = await db.select({ total: count() }).from(authUser).where(live);
    const rows = await db
      .select()
      .from(authUser)
      .where(live)
      .orderBy(asc(authUser.createdAt), asc(authUser.id))
      .limit(perPage)
      .offset((page - 1) * perPage);
    const last = Math.max(1, Math.ceil(total / perPage));
    const base = `${deps.config.publicUrl}/auth/v1/admin/users`;
    const links = [`<${base}?page=${last}&per_page=${perPage}>; rel="last"`];
    if (page < last) links.unshift(`<${base}?page=${page + 1}&per_page=${perPage}>; rel="next"`);
    reply.header("x-total-count", String(total)).header("link", links.join(", "));
    return { users: rows.map((u) => userJson(u)), aud: "authenticated" };
  });

  app.post("/admin/users", async (req) => {
    await requireOperator(deps, req);
    const body = obj(req.body);
    if (typeof body.email !== "string" && typeof body.phone !== "string") {
      throw badRequest("validation_failed", "Unable to validate request: an email or a phone is required");
    }
    const { set } = await attributes(deps, body, null);
    try {
      const [created] = await db
        .insert(authUser)
        .values({
          appMetadata: { provider: set.email ? "email" : "phone", providers: [set.email ? "email" : "phone"] },
          ...set,
        })
        .returning();
      return userJson(created);
    } catch (err) {
      if (isUniqueViolation(err)) throw emailExists();
      throw err;
    }
  });

  app.get<{ Params: { id: string } }>("/admin/users/:id", async (req) => {
    await requireOperator(deps, req);
    if (!isUuid(req.params.id)) throw notFound();
    const [user] = await db
      .select()
      .from(authUser)
      .where(and(eq(authUser.id, req.params.id), isNull(authUser.deletedAt)));
    if (!user) throw notFound();
    return userJson(user, await loadFactors(db, user.id));
  });

  app.put<{ Params: { id: string } }>("/admin/users/:id", async (req) => {
    await requireOperator(deps, req);
    if (!isUuid(req.params.id)) throw notFound();
    const { set, banned } = await attributes(deps, obj(req.body), req.params.id);
    const [user] = await db
      .update(authUser)
      .set({ ...set, updatedAt: sql`now()` })
      .where(and(eq(authUser.id, req.params.id), isNull(authUser.deletedAt)))
      .returning();
    if (!user) throw notFound();
    // Issue 3 rule 2: a banned (deactivated) user's sessions end now, not at their next refresh.
    if (banned || set.encryptedPassword) await endUserSessions(db, user.id);
    return userJson(user, await loadFactors(db, user.id));
  });

  // Users referenced by workspace data cannot vanish: they are soft-deleted (signed out, address released).
  app.delete<{ Params: { id: string } }>("/admin/users/:id", async (req) => {
    const caller = await requireOperator(deps, req);
    if (!isUuid(req.params.id)) throw notFound();
    if (req.params.id === caller.user.id) throw badRequest("validation_failed", "Operators cannot delete themselves");
    const [user] = await db
      .select()
      .from(authUser)
      .where(and(eq(authUser.id, req.params.id), isNull(authUser.deletedAt)));
    if (!user) throw notFound();
    const soft = async () => {
      await endUserSessions(db, user.id);
      await db
        .update(authUser)
        .set({ deletedAt: sql`now()`, email: null, phone: null, encryptedPassword: null, updatedAt: sql`now()` })
        .where(eq(authUser.id, user.id));
    };
    if (obj(req.body).should_soft_delete === true) await soft();
    else {
      try {
        await db.delete(authUser).where(eq(authUser.id, user.id));
      } catch (err) {
        if (
          (err as { code?: string; cause?: { code?: string } }).code !== "23503" &&
          (err as { cause?: { code?: string } }).cause?.code !== "23503"
        )
          throw err;
        await soft();
      }
    }
    return userJson(user);
  });

  app.get<{ Params: { id: string } }>("/admin/users/:id/factors", async (req) => {
    await requireOperator(deps, req);
    if (!isUuid(req.params.id)) throw notFound();
    return (await loadFactors(db, req.params.id)).map(factorJson);
  });

  app.delete<{ Params: { id: string; factorId: string } }>("/admin/users/:id/factors/:factorId", async (req) => {
    await requireOperator(deps, req);
    if (!isUuid(req.params.id) || !isUuid(req.params.factorId)) throw notFound();
    const deleted = await db
      .delete(authMfaFactor)
      .where(and(eq(authMfaFactor.id, req.params.factorId), eq(authMfaFactor.userId, req.params.id)))
      .returning();
    if (!deleted.length) throw new AuthError(404, "mfa_factor_not_found", "Factor not found");
    return factorJson(deleted[0]);
  });
}
