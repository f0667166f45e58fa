import { createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { InboxConfig } from "../../config.ts";
import type { Db } from "../../platform/db/database.ts";
import type { Jobs } from "../../platform/jobs/worker.ts";
import { META_WEBHOOK_JOB } from "./intake.ts";

// Issue 24, DESIGN §2.3.2: /webhooks/meta. GET answers Meta's subscription handshake (hub.challenge, when
// hub.verify_token is META_VERIFY_TOKEN). POST is accepted only with X-Hub-Signature-256 = HMAC-SHA256 of the raw
// body's bytes under META_APP_SECRET, compared in constant time; anything else is refused and nothing is stored.
// An accepted body is queued as it came (one job) and answered 200 at once: Meta wants an answer within seconds and
// redelivers what is not answered, and the job stores each message once whatever the redeliveries.

const MAX_BODY = 3 * 1024 * 1024;

export function validSignature(secret: string, raw: Buffer, header: string | undefined): boolean {
  if (!header?.startsWith("sha256=")) return false;
  const given = Buffer.from(header.slice(7), "hex");
  const expected = createHmac("sha256", secret).update(raw).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function metaWebhookRoutes(
  app: FastifyInstance,
  opts: { db: Db; jobs: Jobs; inbox: InboxConfig },
): Promise<void> {
  const { db, jobs, inbox } = opts;
  // The raw bytes, as signed: this plugin's JSON is not parsed before the signature is checked.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: MAX_BODY }, (_req, body, done) => done(null, body));

  app.get<{ Querystring: Record<string, string | undefined> }>("/webhooks/meta", async (req, reply) => {
    const q = req.query;
    if (q["hub.mode"] !== "subscribe" || !q["hub.challenge"]) {
      return reply.code(400).send({ code: "bad_request", message: "Expected hub.mode=subscribe and a hub.challenge" });
    }
    if (!inbox.metaVerifyToken || q["hub.verify_token"] !== inbox.metaVerifyToken) {
      return reply.code(403).send({ code: "forbidden", message: "The verify token does not match META_VERIFY_TOKEN" });
    }
    return reply.code(200).type("text/plain").send(q["hub.challenge"]);
  });

  app.post("/webhooks/meta", async (req, reply) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const header = req.headers["x-hub-signature-256"];
    if (!inbox.metaAppSecret) {
      return reply.code(403).send({ code: "not_configured", message: "META_APP_SECRET is not set on this server" });
    }
    if (typeof header !== "string" || !header) {
      return reply.code(401).send({ code: "signature_missing", message: "X-Hub-Signature-256 is missing" });
    }
    if (!validSignature(inbox.metaAppSecret, raw, header)) {
      return reply
        .code(403)
        .send({ code: "signature_invalid", message: "X-Hub-Signature-256 does not match the body" });
    }
    let payload: unknown;
    try {
      payload = JSON.parse(raw.toString("utf8"));
    } catch {
      return reply.code(400).send({ code: "bad_json", message: "The body is not JSON" });
    }
    if (!payload || typeof payload !== "object" || !Array.isArray((payload as { entry?: unknown }).entry)) {
      return reply.code(400).send({ code: "bad_payload", message: "Expected Meta's {object, entry: [...]}" });
    }
    await jobs.enqueue(db, { name: META_WEBHOOK_JOB, payload, maxAttempts: 8 });
    return reply.code(200).type("text/plain").send("EVENT_RECEIVED");
  });
}
