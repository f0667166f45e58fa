import type { FastifyError, FastifyInstance } from "fastify";
import { ZodError } from "zod";
import { AuthError } from "../auth/auth-error.ts";
import { databaseTrouble, RETRY_AFTER_SECONDS } from "../db/database-errors.ts";

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

// DESIGN §3.4: JSON errors with a stable code and a human message; never a stack trace.
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | HttpError | ZodError | AuthError, req, reply) => {
    if (err instanceof ZodError) {
      const fields = err.issues.map((i) => ({ field: i.path.join("."), message: i.message }));
      return reply
        .code(422)
        .send({ code: "validation_failed", message: fields[0]?.message ?? "Invalid input", details: fields });
    }
    // Auth rules (rate limits, weak passwords) reused outside /auth/v1 keep their status and code.
    if (err instanceof AuthError) {
      if (err.status === 429) reply.header("retry-after", String(err.extra.retryAfter ?? 60));
      return reply.code(err.status).send({ code: err.code, message: err.message });
    }
    if (err instanceof HttpError) {
      return reply.code(err.statusCode).send({ code: err.code, message: err.message, details: err.details });
    }
    const status = err.statusCode ?? 500;
    if (status < 500) {
      return reply.code(status).send({ code: err.code ?? "bad_request", message: err.message });
    }
    const trouble = databaseTrouble(err);
    if (trouble) {
      req.log.warn({ err }, "database trouble");
      if (trouble.status === 503) reply.header("retry-after", String(RETRY_AFTER_SECONDS));
      const code = trouble.kind === "timeout" ? "statement_timeout" : "database_unavailable";
      return reply.code(trouble.status).send({ code, message: trouble.message });
    }
    req.log.error({ err }, "request failed");
    return reply
      .code(500)
      .send({ code: "internal_error", message: "Something went wrong on our side. Please try again." });
  });
}
