import { authSession, authUser, user } from "@workmetrics/domain/db/schema";
import { and, desc, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Db } from "../../platform/db/database.ts";
import { HttpError } from "../../platform/http/errors.ts";
import { describeDevice } from "./device.ts";

const ProfileInput = z.object({
  name: z
    .string({ message: "Your name is required" })
    .trim()
    .min(1, "Your name is required")
    .max(120, "Name must be at most 120 characters"),
});
const SessionParams = z.object({ id: z.string().uuid("Not a session id") });

// /dashboard/settings/account (issue 3 item 9): the caller's own profile and sessions.
export async function accountRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  app.addHook("preHandler", app.authGuard.requireAuth);

  app.patch("/api/account/profile", async (req) => {
    const { name } = ProfileInput.parse(req.body ?? {});
    const userId = req.auth!.userId;
    await db.transaction(async (tx) => {
      await tx
        .update(authUser)
        .set({
          userMetadata: sql`${authUser.userMetadata} || ${JSON.stringify({ name })}::jsonb`,
          updatedAt: new Date(),
        })
        .where(eq(authUser.id, userId));
      await tx.update(user).set({ name, updatedAt: new Date() }).where(eq(user.id, userId));
    });
    return { name };
  });

  app.get("/api/account/sessions", async (req, reply) => {
    const rows = await db
      .select()
      .from(authSession)
      .where(eq(authSession.userId, req.auth!.userId))
      .orderBy(desc(sql`coalesce(${authSession.refreshedAt}, ${authSession.createdAt})`));
    reply.header("cache-control", "no-store");
    return rows.map((s) => ({
      id: s.id,
      current: s.id === req.auth!.sessionId,
      device: describeDevice(s.userAgent),
      ip: s.ip,
      created_at: s.createdAt.toISOString(),
      last_used_at: (s.refreshedAt ?? s.createdAt).toISOString(),
    }));
  });

  // Deleting the row ends the session at once: the guard and the refresh grant both need it to exist.
  app.delete("/api/account/sessions/:id", async (req, reply) => {
    const { id } = SessionParams.parse(req.params);
    const deleted = await db
      .delete(authSession)
      .where(and(eq(authSession.id, id), eq(authSession.userId, req.auth!.userId)))
      .returning({ id: authSession.id });
    if (deleted.length === 0) throw new HttpError(404, "session_not_found", "That session has already ended.");
    return reply.code(204).send();
  });
}
