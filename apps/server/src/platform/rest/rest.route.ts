import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { bearerToken } from "../auth/guard.ts";
import { decodePayload } from "../auth/jwt.ts";
import type { Database, Db } from "../db/database.ts";
import { RETRY_AFTER_SECONDS } from "../db/database-errors.ts";
import { onReadDatabase } from "../http/lifecycle.ts";
import { unauthenticated } from "./access.ts";
import { type RestRequest, type RestResult, runDelete, runInsert, runRead, runUpdate } from "./engine.ts";
import { idempotencyKeyOf, runIdempotent } from "./idempotency.ts";
import { parsePrefer, parseQuery, parseRange } from "./query-parse.ts";
import { resourceMeta } from "./resource-meta.ts";
import { fromDatabaseError, RestError } from "./rest-error.ts";
import { runRpc } from "./rpc/registry.ts";
import { callerFor, inCallerTransaction, Rollback } from "./transaction.ts";

// DESIGN §2.1: /rest/v1/{resource} in PostgREST's dialect over registered resources, /rest/v1/rpc/{fn} for commands.

const OBJECT = "application/vnd.pgrst.object+json";
const BODY_LIMIT = 8 * 1024 * 1024; // a CSV import of a few thousand rows

function queryPairs(req: FastifyRequest): [string, string][] {
  const raw = req.raw.url ?? "";
  const q = raw.indexOf("?");
  if (q < 0) return [];
  try {
    return [...new URLSearchParams(raw.slice(q + 1))];
  } catch {
    throw new RestError(400, "PGRST100", "The query string could not be read");
  }
}

// The caller's session: a bearer token (supabase-js) or the session cookie; the anon key or no key is anon.
async function authenticate(app: FastifyInstance, req: FastifyRequest) {
  const token = bearerToken(req);
  if (token && decodePayload(token)?.role === "anon") return null;
  const auth = await app.authGuard.authenticate(req);
  if (token && !auth) throw new RestError(401, "PGRST301", "JWT expired or invalid", null, "Sign in again");
  return auth;
}

// Commands that only read (issue 25 §3: reports, dashboards, balances, lists): with a replica they run there.
export const READ_ONLY_COMMANDS = new Set([
  "report",
  "dashboard_summary",
  "stock_levels",
  "stock_card",
  "stock_on_hand",
  "account_balances",
  "journal_list",
  "journal_get",
  "document_list_totals",
  "challenge_leaderboard",
]);

function send(reply: FastifyReply, result: RestResult): FastifyReply {
  reply.code(result.status).header("cache-control", "no-store");
  for (const [k, v] of Object.entries(result.headers)) reply.header(k, v);
  if (result.body === null) return reply.send();
  return reply.type(result.headers["content-type"] ?? "application/json; charset=utf-8").send(result.body);
}

export async function restRoutes(
  app: FastifyInstance,
  opts: { db: Db; maxRows: number; database?: Pick<Database, "db" | "replica" | "reads"> },
): Promise<void> {
  const { db, maxRows } = opts;
  // Issue 25 §3: reads may go to the replica (lifecycle.ts onReadDatabase), writes and commands to the primary.
  const reads = opts.database ?? { db, reads: undefined as never };
  // supabase-js sends DELETE (and some PATCH) requests with a JSON content type and no body.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new RestError(400, "PGRST102", "Could not parse the request body as JSON"), undefined);
    }
  });
  app.setErrorHandler((err, req, reply) => {
    const known = fromDatabaseError(err);
    if (known && known.status >= 500) req.log.warn({ err }, "rest request stopped by the database");
    if (known?.status === 503) reply.header("retry-after", String(RETRY_AFTER_SECONDS));
    // A command's rate limit says when to come back (details.retry_after, seconds).
    const retryAfter = (known?.details as { retry_after?: unknown } | null | undefined)?.retry_after;
    if (known?.status === 429 && typeof retryAfter === "number") reply.header("retry-after", String(retryAfter));
    if (known) return reply.code(known.status).send(known.body());
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    if (status < 500) {
      const message = status === 413 ? "The request body is too large" : "The request could not be read";
      return reply.code(status).send({ code: "PGRST102", message, details: null, hint: null });
    }
    req.log.error({ err }, "rest request failed");
    return reply.code(500).send({
      code: "internal_error",
      message: "Something went wrong on our side. Please try again.",
      details: null,
      hint: null,
    });
  });

  const handle = async (req: FastifyRequest<{ Params: { resource: string } }>, reply: FastifyReply) => {
    const meta = resourceMeta(req.params.resource);
    const query = parseQuery(queryPairs(req));
    const prefer = parsePrefer(req.headers.prefer);
    const accept = String(req.headers.accept ?? "");
    const rangeHeader = req.headers.range;
    const rest: Omit<RestRequest, "caller"> = {
      meta,
      query,
      prefer,
      single: accept.includes(OBJECT),
      range: req.method === "GET" || req.method === "HEAD" ? parseRange(rangeHeader) : null,
      head: req.method === "HEAD",
      maxRows,
    };
    const auth = await authenticate(app, req);
    const body = req.body;
    const plan = callerFor(auth, meta, query, body);
    if (plan.caller.kind === "anon" && meta.def.scope !== "public") throw unauthenticated();
    const read = req.method === "GET" || req.method === "HEAD";
    const run = (on: Db) =>
      inCallerTransaction(on, plan, prefer.rollback, async (tx, full) => {
        const r: RestRequest = { ...rest, caller: full };
        switch (req.method) {
          case "GET":
          case "HEAD":
            return runRead(tx, r);
          case "POST":
            return runInsert(tx, r, body);
          case "PATCH":
            return runUpdate(tx, r, body);
          case "DELETE":
            return runDelete(tx, r);
          default:
            throw new RestError(405, "PGRST105", "Method not allowed");
        }
      });
    // The platform operator's cross-workspace pages read the primary (few, and right after their own writes).
    const result = read && !plan.platform ? await onReadDatabase(reads, req, reply, run) : await run(db);
    if (rest.single && result.body !== null) result.headers["content-type"] = `${OBJECT}; charset=utf-8`;
    return send(reply, result);
  };

  app.route({
    method: ["GET", "POST", "PATCH", "DELETE"],
    url: "/rest/v1/:resource",
    bodyLimit: BODY_LIMIT,
    handler: handle,
  });

  app.post<{ Params: { fn: string } }>("/rest/v1/rpc/:fn", { bodyLimit: BODY_LIMIT }, async (req, reply) => {
    const auth = await authenticate(app, req);
    if (!auth) throw unauthenticated();
    const prefer = parsePrefer(req.headers.prefer);
    const body = req.body ?? {};
    const key = idempotencyKeyOf(req.headers["idempotency-key"]); // DESIGN §2.3.2
    // Issue 25 §3: a read-only command (a report, a dashboard) reads the replica; it changes nothing, so it keeps
    // no Idempotency-Key answer either (a repeat runs it again and reads the figures as they are then).
    if (READ_ONLY_COMMANDS.has(req.params.fn) && opts.database?.replica && !prefer.rollback) {
      const plan = callerFor(auth, null, null, null);
      const answer = await onReadDatabase(reads, req, reply, (on) =>
        inCallerTransaction(on, plan, false, (tx, caller) => runRpc(tx, req.params.fn, body, caller, app.deps)),
      );
      return reply.code(200).header("cache-control", "no-store").send(answer);
    }
    const answer = await inCallerTransaction(db, callerFor(auth, null, null, null), prefer.rollback, (tx, caller) =>
      runIdempotent(tx, caller, { key, fn: req.params.fn, body }, () =>
        runRpc(tx, req.params.fn, body, caller, app.deps),
      ).catch((err: unknown) => {
        // A command that answers and rolls back (csv_import refusing a file) answers as any other: 200, not kept.
        if (err instanceof Rollback) throw new Rollback({ status: 200, body: err.value, replayed: false });
        throw err;
      }),
    );
    if (answer.replayed) reply.header("idempotent-replayed", "true");
    return reply.code(answer.status).header("cache-control", "no-store").send(answer.body);
  });
}
