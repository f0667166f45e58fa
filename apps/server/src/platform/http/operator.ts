import { decide, MESSAGES } from "@workmetrics/domain";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { HttpError } from "./errors.ts";

// The guard of the platform operator's routes (figures and failed jobs span every workspace): signed in, and a
// platform operator, by the one access rule; `does` words the refusal ("see the failed jobs").
export async function requireOperator(app: FastifyInstance, req: FastifyRequest, does: string): Promise<void> {
  const auth = await app.authGuard.authenticate(req);
  if (!auth) throw new HttpError(401, "not_authenticated", MESSAGES.notAuthenticated);
  const d = decide(auth.isPlatformOperator ? { kind: "operator" } : { kind: "member", permissions: [], features: [] }, {
    audience: "operator",
    does,
  });
  if (!d.allowed) throw new HttpError(403, "forbidden", d.message);
}
