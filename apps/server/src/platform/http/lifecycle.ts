import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Database, Db } from "../db/database.ts";
import {
  isLsn,
  minLsnOf,
  READ_LSN_COOKIE,
  READ_LSN_HEADER,
  READ_LSN_MAX_AGE_S,
  replicaTrouble,
  WAL_LSN_HEADER,
} from "../db/replica.ts";

// Issue 25 §1: readiness apart from liveness. /api/health says the process and its database answer (a balancer
// or supervisor restarts what fails it); /api/ready says this instance takes traffic: 503 before it is ready and
// from the moment it is told to stop (SIGTERM, main.ts), so a balancer that polls it drains the instance while it
// finishes what it has in flight.

// `seeding`: the demo is being written after the server began listening (server.ts, seedWhileServing).
export type Lifecycle = { ready: boolean; draining: boolean; seeding: boolean; instanceId: string };

declare module "fastify" {
  interface FastifyInstance {
    lifecycle: Lifecycle;
  }
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

// What reads or writes the database; the web's files and pages (the SPA) are served at once during the seed.
const DATA_PATH = /^\/(api|auth\/v1|rest\/v1|storage\/v1|realtime|webhooks|dev\/mailbox|metrics|demo|r)(\/|$|\?)/;
export const SEEDING_MESSAGE =
  "The demo data is still being written (a first start takes about a minute); try again in a moment";

export function registerLifecycle(app: FastifyInstance, opts: { database: Database; instanceId: string }): Lifecycle {
  const lifecycle: Lifecycle = { ready: false, draining: false, seeding: false, instanceId: opts.instanceId };
  app.decorate("lifecycle", lifecycle);
  // Issue 21 §5: while the demo's one transaction is being written every query would wait for it (PGlite runs one
  // at a time), so the data's routes say so at once instead of hanging — the web retries and shows a banner.
  app.addHook("onRequest", async (req, reply) => {
    if (!lifecycle.seeding || !DATA_PATH.test(req.url)) return;
    return reply
      .code(503)
      .header("retry-after", "5")
      .header("cache-control", "no-store")
      .send({ code: "seeding", message: SEEDING_MESSAGE, instance: opts.instanceId });
  });
  app.addHook("onReady", async () => {
    lifecycle.ready = true;
  });
  app.addHook("preClose", async () => {
    lifecycle.draining = true;
  });
  app.get("/api/ready", async (_req, reply) => {
    reply.header("cache-control", "no-store");
    if (lifecycle.draining) {
      return reply
        .code(503)
        .send({ code: "draining", message: "This instance is shutting down", instance: opts.instanceId });
    }
    if (!lifecycle.ready) {
      return reply
        .code(503)
        .send({ code: "starting", message: "This instance is starting", instance: opts.instanceId });
    }
    return reply.send({ status: "ready", instance: opts.instanceId });
  });

  // Read-your-writes (issue 25 §3): a write answered 2xx carries the primary's WAL position after it — a cookie for
  // the browser, X-WAL-LSN for an API client to send back as X-Read-LSN — and the author's reads wait for the
  // replica to have replayed it. Only with a replica; the cost is one short query per write.
  const { database } = opts;
  // An answer given while draining closes its connection: Node keeps a keep-alive connection open past the
  // server's close (fastify's keep-alive timeout is 72 s), which would hold the shutdown that long; closed, the
  // client's (nginx's) next request opens one to another instance.
  app.addHook("onSend", async (_req, reply, payload) => {
    if (lifecycle.draining) reply.header("connection", "close");
    return payload;
  });
  app.addHook("onSend", async (req, reply, payload) => {
    if (!database.replica || SAFE.has(req.method) || reply.statusCode >= 400) return payload;
    // A read-only command is a POST that read (x-read-from): no write to wait for.
    if (reply.hasHeader("x-read-from") || req.routeOptions.url === undefined) return payload;
    const lsn = await database.reads.writeLsn();
    if (lsn) {
      reply.header(WAL_LSN_HEADER, lsn);
      appendCookie(reply, `${READ_LSN_COOKIE}=${lsn}; Path=/; Max-Age=${READ_LSN_MAX_AGE_S}; HttpOnly; SameSite=Lax`);
    }
    return payload;
  });
  return lifecycle;
}

function appendCookie(reply: FastifyReply, cookie: string): void {
  const prev = reply.getHeader("set-cookie");
  const list = prev === undefined ? [] : Array.isArray(prev) ? prev.map(String) : [String(prev)];
  reply.header("set-cookie", [...list, cookie]);
}

// The reader's last write position, from X-Read-LSN or the cookie.
export function readerLsn(req: FastifyRequest): string | null {
  const cookie = (req.cookies as Record<string, string | undefined> | undefined)?.[READ_LSN_COOKIE];
  return minLsnOf(req.headers[READ_LSN_HEADER], isLsn(cookie) ? cookie : null);
}

// Runs a read on the replica when the router sends it there, otherwise (or when the replica fails it for the
// replica's sake) on the primary. `run` must be a read: it may run twice.
export async function onReadDatabase<T>(
  database: Pick<Database, "db" | "replica" | "reads">,
  req: FastifyRequest,
  reply: FastifyReply,
  run: (db: Db) => Promise<T>,
): Promise<T> {
  const replica = database.replica;
  if (!replica) return run(database.db);
  const target = await database.reads.target(readerLsn(req));
  if (target === "replica") {
    try {
      const value = await run(replica);
      reply.header("x-read-from", "replica");
      return value;
    } catch (err) {
      const trouble = replicaTrouble(err);
      if (!trouble) throw err;
      if (trouble === "down") database.reads.failed(err);
      // A read path that writes (a list that marks invoices overdue as it reads) is no fault: said at debug level.
      const code = (err as { code?: string; cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code;
      req.log[trouble === "down" ? "warn" : "debug"](
        { code, trouble },
        "a read on the replica ran again on the primary",
      );
    }
  }
  reply.header("x-read-from", "primary");
  return run(database.db);
}
