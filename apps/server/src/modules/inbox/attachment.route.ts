import { decide } from "@workmetrics/domain";
import { CONVERSATION_READ } from "@workmetrics/domain/commands/inbox";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { NOT_AUTHENTICATED } from "../../platform/auth/guard.ts";
import type { Db } from "../../platform/db/database.ts";
import { memberOf, refusalError } from "../../platform/rest/access.ts";
import { fromDatabaseError, RestError } from "../../platform/rest/rest-error.ts";
import { callerFor, inCallerTransaction } from "../../platform/rest/transaction.ts";

// Issue 24: GET /api/inbox/attachments/{id} — a message's file (a customer's photo, a document sent) to whoever
// reads its conversation (session cookie or bearer token), under the same rule as the thread: managers all,
// salespeople their own and the unassigned ones. Images and PDFs open inline; anything else downloads.

const INLINE = new Set(["image/jpeg", "image/png", "image/webp", "image/gif", "application/pdf"]);

export async function inboxAttachmentRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  app.get<{ Params: { id: string } }>("/api/inbox/attachments/:id", async (req, reply) => {
    if (!/^[1-9]\d{0,15}$/.test(req.params.id)) {
      return reply.code(400).send({ code: "PGRST100", message: "The attachment id must be a positive whole number" });
    }
    const auth = await app.authGuard.authenticate(req);
    if (!auth) return reply.code(401).send(NOT_AUTHENTICATED);
    try {
      const file = await inCallerTransaction(opts.db, callerFor(auth, null, null, null), false, async (tx, caller) => {
        if (caller.kind !== "member" || !caller.workspaceId) {
          throw new RestError(403, "42501", "Attachments belong to a workspace; sign in as a member of one");
        }
        const d = decide(memberOf(caller), CONVERSATION_READ);
        if (!d.allowed) throw refusalError(d);
        const res = await tx.execute(sql`select f.file_name, f.mime_type, f.data from conversation_attachment f
          join conversation_message m on m.workspace_id = f.workspace_id and m.id = f.message_id
          join conversation c on c.workspace_id = m.workspace_id and c.id = m.conversation_id
          where f.workspace_id = ${caller.workspaceId}::uuid and f.id = ${Number(req.params.id)}
            ${d.scope === "own" ? sql`and (c.assignee_id = ${caller.userId}::uuid or c.assignee_id is null)` : sql``}`);
        const row = res.rows[0] as { file_name: string; mime_type: string; data: Uint8Array } | undefined;
        if (!row) throw new RestError(404, "PGRST116", "There is no such attachment you can read");
        return row;
      });
      const safe = file.file_name.replace(/[^A-Za-z0-9._-]/g, "_");
      const inline = INLINE.has(file.mime_type);
      return reply
        .code(200)
        .header("cache-control", "private, max-age=3600")
        .header("x-content-type-options", "nosniff")
        .header("content-disposition", `${inline ? "inline" : "attachment"}; filename="${safe}"`)
        .type(inline ? file.mime_type : "application/octet-stream")
        .send(Buffer.from(file.data));
    } catch (err) {
      if (err instanceof RestError) return reply.code(err.status).send(err.body());
      const known = fromDatabaseError(err);
      if (known) return reply.code(known.status).send(known.body());
      throw err;
    }
  });
}
