import type { FastifyError, FastifyInstance } from "fastify";
import { ZodError } from "zod";
import type { Config } from "../../config.ts";
import type { Db } from "../db/database.ts";
import { databaseTrouble, RETRY_AFTER_SECONDS } from "../db/database-errors.ts";
import { bucketRoutes } from "./buckets.route.ts";
import { createFileStore } from "./disk.ts";
import { objectRoutes, uploadRoutes } from "./objects.route.ts";
import { createObjectStore } from "./objects.ts";
import { createUrlSigner } from "./signed-url.ts";
import { StorageError } from "./storage-error.ts";

// /storage/v1 (DESIGN §2.1, issue 5 item 6): the Supabase Storage contract storage-js speaks, over per-workspace
// buckets whose bytes live in the file store (DATA_DIR/storage, or an S3-compatible store: disk.ts). Register with the prefix /storage/v1.
export async function storagePlugin(app: FastifyInstance, opts: { config: Config; db: Db }): Promise<void> {
  const disk = createFileStore(opts.config);
  disk.sweepTemporary().catch((err: unknown) => app.log.warn({ err }, "could not sweep temporary uploads"));
  const deps = {
    db: opts.db,
    disk,
    objects: createObjectStore(opts.db, disk),
    signer: createUrlSigner(opts.config.jwtSecret),
  };

  // storage-js sends `{}` or nothing with some DELETEs and POSTs; an empty JSON body reads as {}.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new StorageError(400, "InvalidRequest", "The request body is not valid JSON."), undefined);
    }
  });

  app.addHook("onSend", async (_req, reply) => {
    if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
  });

  app.setErrorHandler((err: FastifyError | StorageError | ZodError, req, reply) => {
    if (err instanceof StorageError) return reply.code(err.status).send(err.toJSON());
    if (err instanceof ZodError) {
      const message = err.issues[0]?.message ?? "The request is not valid.";
      return reply.code(400).send(new StorageError(400, "InvalidRequest", message).toJSON());
    }
    const status = (err as FastifyError).statusCode ?? 500;
    if (status < 500) {
      return reply.code(status).send(new StorageError(status, "InvalidRequest", err.message).toJSON());
    }
    const trouble = databaseTrouble(err);
    if (trouble) {
      const code = trouble.kind === "timeout" ? "GatewayTimeout" : "DatabaseUnavailable";
      return reply
        .code(trouble.status)
        .header("retry-after", String(RETRY_AFTER_SECONDS))
        .send(new StorageError(trouble.status, code, trouble.message).toJSON());
    }
    req.log.error({ err }, "storage request failed");
    return reply
      .code(500)
      .send(new StorageError(500, "InternalError", "Something went wrong on our side. Please try again.").toJSON());
  });
  app.setNotFoundHandler((req, reply) =>
    reply
      .code(404)
      .send(new StorageError(404, "not_found", `No storage endpoint ${req.method} ${req.url.split("?")[0]}`).toJSON()),
  );

  await app.register(bucketRoutes, deps);
  await app.register(objectRoutes, deps);
  await app.register(uploadRoutes, deps);
}
