import type { FastifyInstance } from "fastify";
import type { InboxConfig } from "../../config.ts";
import type { Db } from "../../platform/db/database.ts";
import { GraphError } from "./graph.ts";
import { connectInstagram, INSTAGRAM_CALLBACK_PATH } from "./instagram.ts";

// Issue 24: GET /instagram/callback (spec §2's public /instagram prefix) — Instagram's business login returns here
// with ?code&state (or ?error=access_denied&error_reason&error_description); the code is exchanged, the account kept
// as channel 3 and subscribed to its messages, and the browser sent back to /dashboard/cca saying how it went.
export async function instagramRoutes(
  app: FastifyInstance,
  opts: { db: Db; inbox: InboxConfig; publicUrl: string },
): Promise<void> {
  const { db, inbox, publicUrl } = opts;
  const back = (result: string, detail?: string) => {
    const u = new URLSearchParams({ instagram: result });
    if (detail) u.set("detail", detail.slice(0, 300));
    return `/dashboard/cca?${u}`;
  };
  app.get<{ Querystring: Record<string, string | undefined> }>(INSTAGRAM_CALLBACK_PATH, async (req, reply) => {
    const q = req.query;
    if (q.error) return reply.redirect(back("refused", q.error_description ?? q.error_reason ?? q.error), 302);
    if (!q.code || !q.state) return reply.redirect(back("failed", "Instagram sent no code back"), 302);
    try {
      const r = await connectInstagram(db, inbox, publicUrl, q.code, q.state, req.log);
      return reply.redirect(back(r.subscribed ? "connected" : "failing", r.error ?? undefined), 302);
    } catch (err) {
      if (!(err instanceof GraphError)) throw err;
      req.log.warn({ err: err.message }, "an Instagram connection failed");
      return reply.redirect(back("failed", err.message), 302);
    }
  });
}
