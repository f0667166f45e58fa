import { authRateLimit } from "@workmetrics/domain/db/schema";
import { sql } from "drizzle-orm";
import type { FastifyReply } from "fastify";
import type { Db } from "../../platform/db/database.ts";
import { HttpError } from "../../platform/http/errors.ts";

// Issue 10 §2: public order forms are rate-limited per IP and per form, in the fixed windows the auth limits use
// (one upsert per hit in auth_rate_limit, shared by every app instance). Every submission attempt counts, refused
// ones too, so a script probing the form runs out as fast as one sending orders.

export type Window = { max: number; windowSeconds: number };

export const ORDER_FORM_LIMITS = {
  view: { max: 300, windowSeconds: 600 }, // page loads per IP
  submitPerIp: { max: 10, windowSeconds: 600 },
  submitPerForm: { max: 60, windowSeconds: 3600 },
} as const satisfies Record<string, Window>;

export async function limit(db: Db, reply: FastifyReply, key: string, window: Window, message: string) {
  const rows = await db
    .insert(authRateLimit)
    .values({ key, windowStart: sql`now()`, hits: 1 })
    .onConflictDoUpdate({
      target: authRateLimit.key,
      set: {
        hits: sql`case when ${authRateLimit.windowStart} < now() - make_interval(secs => ${window.windowSeconds}) then 1 else ${authRateLimit.hits} + 1 end`,
        windowStart: sql`case when ${authRateLimit.windowStart} < now() - make_interval(secs => ${window.windowSeconds}) then now() else ${authRateLimit.windowStart} end`,
      },
    })
    .returning({
      hits: authRateLimit.hits,
      retryAfter: sql<number>`ceil(extract(epoch from (${authRateLimit.windowStart} + make_interval(secs => ${window.windowSeconds}) - now())))::int`,
    });
  const row = rows[0];
  if (row && row.hits > window.max) {
    const retryAfter = Math.max(1, Number(row.retryAfter));
    reply.header("retry-after", String(retryAfter));
    const minutes = Math.ceil(retryAfter / 60);
    throw new HttpError(
      429,
      "over_request_rate_limit",
      `${message} Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    );
  }
}
