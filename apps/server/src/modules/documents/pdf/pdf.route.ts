import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { bearerToken, NOT_AUTHENTICATED } from "../../../platform/auth/guard.ts";
import { decodePayload } from "../../../platform/auth/jwt.ts";
import type { Db, Tx } from "../../../platform/db/database.ts";
import { RETRY_AFTER_SECONDS } from "../../../platform/db/database-errors.ts";
import type { Caller } from "../../../platform/rest/access.ts";
import { fromDatabaseError, RestError } from "../../../platform/rest/rest-error.ts";
import { callerFor, inCallerTransaction } from "../../../platform/rest/transaction.ts";
import { printDocument, specForPath } from "./document.ts";
import { inLocale, printingLocale } from "./format.ts";
import { printerFor } from "./print-types.ts";
import { printStatement } from "./statement.ts";

// DESIGN §2.3.1 "Printing": GET /api/documents/{type}/{id}/pdf answers application/pdf to whoever may read the
// document (session cookie or bearer token), and GET /api/documents/statement/{company_id}/pdf?from=&to= a
// customer's statement of account (issue 10 §2). Refusals are the PostgREST error shape the document commands use
// (403 with the clerk's message, 404 for another workspace's document); no session is DESIGN §3.4's 401.

const ID = /^[1-9]\d{0,15}$/;

function idParam(value: string, what: string): number {
  if (!ID.test(value)) throw new RestError(400, "PGRST100", `${what} must be a positive whole number`);
  return Number(value);
}

class SignedOut extends Error {}

async function asCaller<T>(
  app: FastifyInstance,
  db: Db,
  req: FastifyRequest,
  fn: (tx: Tx, caller: Caller) => Promise<T>,
): Promise<T> {
  const token = bearerToken(req);
  const auth = token && decodePayload(token)?.role === "anon" ? null : await app.authGuard.authenticate(req);
  if (!auth) throw new SignedOut();
  return inCallerTransaction(db, callerFor(auth, null, null, null), false, async (tx, caller) => {
    if (caller.kind !== "member" || !caller.workspaceId) {
      throw new RestError(403, "42501", "Documents belong to a workspace; sign in as a member of one");
    }
    return fn(tx, caller);
  });
}

function sendPdf(reply: FastifyReply, pdf: Buffer, filename: string, download: boolean): FastifyReply {
  const safe = filename.replace(/[^A-Za-z0-9._-]/g, "_");
  return reply
    .code(200)
    .header("cache-control", "private, no-store")
    .header("content-disposition", `${download ? "attachment" : "inline"}; filename="${safe}"`)
    .type("application/pdf")
    .send(pdf);
}

export async function documentPdfRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  app.setErrorHandler((err, req, reply) => {
    if (err instanceof SignedOut) return reply.code(401).send(NOT_AUTHENTICATED);
    const known = fromDatabaseError(err);
    if (known) {
      if (known.status === 503) reply.header("retry-after", String(RETRY_AFTER_SECONDS));
      if (known.status >= 500) req.log.warn({ err }, "document PDF stopped by the database");
      return reply.code(known.status).send(known.body());
    }
    throw err; // the app's handler: 500 without a stack trace
  });

  app.get<{ Params: { companyId: string }; Querystring: { from?: string; to?: string; download?: string } }>(
    "/api/documents/statement/:companyId/pdf",
    async (req, reply) => {
      const printed = await asCaller(app, db, req, async (tx, caller) =>
        inLocale(await printingLocale(tx, caller.workspaceId), () =>
          printStatement(tx, caller, idParam(req.params.companyId, "The customer"), {
            from: req.query.from,
            to: req.query.to,
          }),
        ),
      );
      return sendPdf(reply, printed.pdf, printed.filename, req.query.download !== undefined);
    },
  );

  app.get<{ Params: { type: string; id: string }; Querystring: { download?: string } }>(
    "/api/documents/:type/:id/pdf",
    async (req, reply) => {
      // Issue 21 §1: dates and amounts print in the workspace's locale.
      const printed = await asCaller(app, db, req, async (tx, caller) =>
        inLocale(await printingLocale(tx, caller.workspaceId), () => {
          const printer = printerFor(req.params.type);
          if (printer) return printer(tx, caller, idParam(req.params.id, "The id"));
          const spec = specForPath(req.params.type);
          const docId = idParam(req.params.id, `The ${spec.machine.title.toLowerCase()} id`);
          return printDocument(tx, caller, spec.machine.type, docId, app.deps.disk);
        }),
      );
      return sendPdf(reply, printed.pdf, printed.filename, req.query.download !== undefined);
    },
  );
}
