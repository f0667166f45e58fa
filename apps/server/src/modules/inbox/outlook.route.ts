import type { FastifyInstance } from "fastify";
import type { InboxConfig } from "../../config.ts";
import type { Db } from "../../platform/db/database.ts";
import type { Jobs } from "../../platform/jobs/worker.ts";
import { GraphError } from "./graph.ts";
import {
  connectOutlook,
  OUTLOOK_CALLBACK_PATH,
  OUTLOOK_NOTIFY_JOB,
  OUTLOOK_WEBHOOK_PATH,
  type OutlookNotification,
  trustedNotifications,
} from "./outlook.ts";

// Issue 24, DESIGN §2.3.2: the two public doors of the Outlook channel.
// - GET /outlook/callback (spec §2's public /outlook prefix): Microsoft's login returns here with ?code&state; the
//   code is exchanged (PKCE), the mailbox kept as channel 4 with its sealed tokens and subscribed to, and the
//   browser sent back to /dashboard/cca saying how it went.
// - POST /webhooks/outlook: Graph's validationToken handshake (the token echoed as text/plain, at once), and change
//   and lifecycle notifications — kept only when they name a subscription of ours and carry its clientState, queued
//   as one job and answered 202 at once (Graph wants an answer within 3 seconds); the job fetches the mails.

const MAX_BODY = 1024 * 1024;

export async function outlookRoutes(
  app: FastifyInstance,
  opts: { db: Db; jobs: Jobs; inbox: InboxConfig; publicUrl: string },
): Promise<void> {
  const { db, jobs, inbox, publicUrl } = opts;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: MAX_BODY }, (_req, body, done) => done(null, body));

  const back = (result: string, detail?: string) => {
    const u = new URLSearchParams({ outlook: result });
    if (detail) u.set("detail", detail.slice(0, 300));
    return `/dashboard/cca?${u}`;
  };

  app.get<{ Querystring: Record<string, string | undefined> }>(OUTLOOK_CALLBACK_PATH, async (req, reply) => {
    const q = req.query;
    if (q.error) return reply.redirect(back("refused", q.error_description ?? q.error), 302);
    if (!q.code || !q.state) return reply.redirect(back("failed", "Microsoft sent no code back"), 302);
    try {
      const r = await connectOutlook(db, inbox, publicUrl, q.code, q.state, req.log);
      return reply.redirect(back(r.subscribed ? "connected" : "failing", r.error ?? undefined), 302);
    } catch (err) {
      if (!(err instanceof GraphError)) throw err;
      req.log.warn({ err: err.message }, "an Outlook connection failed");
      return reply.redirect(back("failed", err.message), 302);
    }
  });

  app.get<{ Querystring: { validationToken?: string } }>(OUTLOOK_WEBHOOK_PATH, async (req, reply) => {
    if (!req.query.validationToken) {
      return reply.code(400).send({ code: "bad_request", message: "Expected a validationToken" });
    }
    return reply.code(200).type("text/plain; charset=utf-8").send(req.query.validationToken);
  });

  app.post<{ Querystring: { validationToken?: string } }>(OUTLOOK_WEBHOOK_PATH, async (req, reply) => {
    if (typeof req.query.validationToken === "string") {
      return reply.code(200).type("text/plain; charset=utf-8").send(req.query.validationToken);
    }
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    let payload: { value?: unknown };
    try {
      payload = JSON.parse(raw.toString("utf8"));
    } catch {
      return reply.code(400).send({ code: "bad_json", message: "The body is not JSON" });
    }
    if (!payload || !Array.isArray(payload.value)) {
      return reply.code(400).send({ code: "bad_payload", message: "Expected Graph's {value: [notifications]}" });
    }
    const trusted = await trustedNotifications(db, inbox, payload.value as OutlookNotification[]);
    if (!trusted.length) {
      return reply.code(403).send({
        code: "client_state_invalid",
        message: "No notification names a subscription of ours with its clientState",
      });
    }
    await jobs.enqueue(db, { name: OUTLOOK_NOTIFY_JOB, payload: { value: trusted }, maxAttempts: 8 });
    return reply.code(202).send();
  });
}
