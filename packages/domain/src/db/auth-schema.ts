import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { timestamps } from "./columns.ts";
import { authUser } from "./platform-schema.ts";

// ---- Auth platform tables (GoTrue-compatible service, issue 3). Not per workspace, never granted to workmetrics_app ----

export type AuthMethodReference = { method: string; timestamp: number };

export const authSession = pgTable(
  "auth_session",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => authUser.id, { onDelete: "cascade" }),
    aal: text("aal").notNull().default("aal1"),
    amr: jsonb("amr").$type<AuthMethodReference[]>().notNull().default([]),
    factorId: uuid("factor_id"),
    // Set by POST /api/auth/callback: the session cookie lives 7 days instead of 8 hours.
    remember: boolean("remember").notNull().default(false),
    userAgent: text("user_agent"),
    ip: text("ip"),
    refreshedAt: timestamp("refreshed_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index("auth_session_user_idx").on(t.userId)],
);

// The token handed out is HMAC(JWT_SECRET, id); only its SHA-256 is stored, so a database dump yields no token.
export const authRefreshToken = pgTable(
  "auth_refresh_token",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => authSession.id, { onDelete: "cascade" }),
    userId: uuid("user_id").notNull(),
    parentId: text("parent_id"),
    revoked: boolean("revoked").notNull().default(false),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("auth_refresh_token_hash_key").on(t.tokenHash),
    index("auth_refresh_token_session_idx").on(t.sessionId),
  ],
);

export type OneTimeTokenType =
  | "confirmation"
  | "recovery"
  | "magiclink"
  | "invite"
  | "email_change"
  | "reauthentication";

// E-mailed links carry a long random token, e-mailed codes six digits; both stored only as SHA-256 hashes.
export const authOneTimeToken = pgTable(
  "auth_one_time_token",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => authUser.id, { onDelete: "cascade" }),
    tokenType: text("token_type").$type<OneTimeTokenType>().notNull(),
    tokenHash: text("token_hash").notNull(),
    codeHash: text("code_hash").notNull(),
    // The address the token was sent to (for email_change, the new address).
    relatesTo: text("relates_to").notNull(),
    flowStateId: uuid("flow_state_id"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("auth_one_time_token_hash_key").on(t.tokenHash),
    index("auth_one_time_token_user_idx").on(t.userId, t.tokenType),
  ],
);

// PKCE: an e-mailed link verified in the browser yields an auth code the client exchanges with its verifier.
export const authFlowState = pgTable("auth_flow_state", {
  id: uuid("id").primaryKey().defaultRandom(),
  userId: uuid("user_id")
    .notNull()
    .references(() => authUser.id, { onDelete: "cascade" }),
  codeChallenge: text("code_challenge").notNull(),
  codeChallengeMethod: text("code_challenge_method").notNull(),
  authenticationMethod: text("authentication_method").notNull(),
  authCodeHash: text("auth_code_hash"),
  authCodeIssuedAt: timestamp("auth_code_issued_at", { withTimezone: true }),
  ...timestamps,
});

export const authMfaFactor = pgTable(
  "auth_mfa_factor",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => authUser.id, { onDelete: "cascade" }),
    friendlyName: text("friendly_name"),
    factorType: text("factor_type").notNull().default("totp"),
    status: text("status").$type<"unverified" | "verified">().notNull().default("unverified"),
    // AES-256-GCM sealed with a key derived from JWT_SECRET.
    secret: text("secret").notNull(),
    // The last accepted TOTP time step, so a code cannot be replayed.
    lastStep: bigint("last_step", { mode: "number" }),
    lastChallengedAt: timestamp("last_challenged_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index("auth_mfa_factor_user_idx").on(t.userId)],
);

export const authMfaChallenge = pgTable("auth_mfa_challenge", {
  id: uuid("id").primaryKey().defaultRandom(),
  factorId: uuid("factor_id")
    .notNull()
    .references(() => authMfaFactor.id, { onDelete: "cascade" }),
  ip: text("ip"),
  verifiedAt: timestamp("verified_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

// Per-IP fixed windows, in the database so every app instance shares them.
export const authRateLimit = pgTable("auth_rate_limit", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  hits: integer("hits").notNull(),
});

// Outgoing mail kept when SMTP_URL is unset, shown at /dev/mailbox (DESIGN §3.1).
export const authMail = pgTable("auth_mail", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  html: text("html").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`now()`),
});
