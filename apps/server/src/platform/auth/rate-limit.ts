import { authRateLimit } from "@workmetrics/domain/db/schema";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { AuthError } from "./auth-error.ts";

export type RateLimitKind = "sign_in" | "token_refresh" | "verify" | "otp" | "email_sent" | "mfa";
export type RateLimit = { max: number; windowSeconds: number };
export type RateLimits = Record<RateLimitKind, RateLimit>;

// Issue 3 rule 2: GoTrue's default per-IP limits.
export const DEFAULT_RATE_LIMITS: RateLimits = {
  sign_in: { max: 30, windowSeconds: 300 },
  token_refresh: { max: 150, windowSeconds: 300 },
  verify: { max: 30, windowSeconds: 300 },
  otp: { max: 30, windowSeconds: 300 },
  email_sent: { max: 30, windowSeconds: 3600 },
  mfa: { max: 15, windowSeconds: 60 },
};

// AUTH_RATE_LIMITS="sign_in=30/300,mfa=15/60": overrides some limits, as max per window in seconds.
export function parseRateLimits(text: string | undefined): RateLimits {
  const limits = structuredClone(DEFAULT_RATE_LIMITS);
  if (!text) return limits;
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([a-z_]+)=(\d+)\/(\d+)$/.exec(part);
    if (!m || !(m[1] in limits)) {
      throw new Error(`"${part}" is not KIND=MAX/SECONDS with KIND one of ${Object.keys(limits).join(", ")}`);
    }
    limits[m[1] as RateLimitKind] = { max: Number(m[2]), windowSeconds: Math.max(1, Number(m[3])) };
  }
  return limits;
}

// One upsert per hit: a fixed window per (kind, IP), shared by every app instance through the database.
export async function hit(db: Db, limits: RateLimits, kind: RateLimitKind, ip: string, cost = 1): Promise<void> {
  const { max, windowSeconds } = limits[kind];
  const key = `${kind}:${ip}`;
  const rows = await db
    .insert(authRateLimit)
    .values({ key, windowStart: sql`now()`, hits: cost })
    .onConflictDoUpdate({
      target: authRateLimit.key,
      set: {
        hits: sql`case when ${authRateLimit.windowStart} < now() - make_interval(secs => ${windowSeconds}) then ${cost} else ${authRateLimit.hits} + ${cost} end`,
        windowStart: sql`case when ${authRateLimit.windowStart} < now() - make_interval(secs => ${windowSeconds}) then now() else ${authRateLimit.windowStart} end`,
      },
    })
    .returning({
      hits: authRateLimit.hits,
      retryAfter: sql<number>`ceil(extract(epoch from (${authRateLimit.windowStart} + make_interval(secs => ${windowSeconds}) - now())))::int`,
    });
  const row = rows[0];
  if (row && row.hits > max) {
    const retryAfter = Math.max(1, row.retryAfter);
    throw kind === "email_sent"
      ? new AuthError(429, "over_email_send_rate_limit", "Email rate limit exceeded", { retryAfter })
      : new AuthError(429, "over_request_rate_limit", "Request rate limit reached", { retryAfter });
  }
}
