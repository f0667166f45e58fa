import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { z } from "zod";
import { parseRateLimits, type RateLimits } from "./platform/auth/rate-limit.ts";
import type { StorageSettings } from "./platform/storage/disk.ts";

// DESIGN §3.1: every setting comes from the environment, validated with a message that names the variable.
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// connection string")
    .optional(),
  // Issue 25 §3: a streaming replica for reads that may lag (lists, reports), with read-your-writes.
  DATABASE_REPLICA_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// connection string")
    .optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  // Issue 25: this instance's name in /api/health, its logs and /metrics (default: host name and process id).
  INSTANCE_ID: z
    .string()
    .regex(/^[\w.:-]{1,64}$/, "must be 1 to 64 letters, digits, dots, colons, dashes or underscores")
    .optional(),
  // Issue 25 §4: the bearer token that reads /metrics (otherwise only a direct local request does).
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  // Issue 25 §1: on SIGTERM, how long /api/ready answers 503 while the instance still serves (so a balancer that
  // polls it stops sending), then how long requests in flight may take before the process exits anyway.
  SHUTDOWN_DRAIN_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(0, "must be 0 or more")
    .max(120_000, "must be at most 120000")
    .default(0),
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(1000, "must be at least 1000")
    .max(600_000, "must be at most 600000")
    .default(30_000),
  BASE_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, "must be a host name such as localhost or example.com")
    .default("localhost"),
  PUBLIC_URL: z.string().url("must be a full URL such as https://workmetrics.example.com").optional(),
  JWT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  // basic: the demo workspaces, their people and master data without the year of trading (issue 10 §4), which the
  // API tests that start a server of their own use.
  SEED: z.enum(["demo", "basic", "none"], { message: "must be demo, basic or none" }).default("demo"),
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  WEB_DIST: z.string().optional(),
  // Issue 3: where an unauthenticated request for a protected page is sent (with ?redirectedFrom=).
  AUTH_REDIRECT_PATH: z
    .string()
    .regex(/^\/(?!\/)/, "must be a path on this site such as /")
    .default("/"),
  AUTH_RATE_LIMITS: z
    .string()
    .regex(/^\s*[a-z_]+=\d+\/\d+\s*(,\s*[a-z_]+=\d+\/\d+\s*)*$/, "must look like sign_in=30/300,mfa=15/60")
    .optional(),
  AUTH_REFRESH_REUSE_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
  AUTH_REAUTH_WINDOW_SECONDS: z.coerce.number().int().min(0).default(900),
  // Issue 9 §3: how long one statement of a request may run (0: no limit), and the most rows one read returns
  // (PostgREST's db-max-rows: a larger limit is capped to it).
  STATEMENT_TIMEOUT_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(0, "must be 0 (no limit) or more")
    .max(3_600_000, "must be at most 3600000 (an hour)")
    .default(15_000),
  MAX_ROWS: z.coerce
    .number({ message: "must be a number of rows" })
    .int("must be a whole number of rows")
    .min(1, "must be at least 1")
    .max(100_000, "must be at most 100000")
    .default(1000),
  // Issue 20 §1: the job queue's first retry waits this long (doubled for each later one, at most an hour).
  JOB_RETRY_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(10, "must be at least 10")
    .max(3_600_000, "must be at most 3600000 (an hour)")
    .default(30_000),
  // Behind nginx: the proxies whose X-Forwarded-For to believe (IPs/CIDRs, comma-separated).
  // Unset, the socket's address is the client's, so nobody can dodge per-IP limits with a forged header.
  TRUST_PROXY: z
    .string()
    .regex(/^[0-9a-f.:/]+(\s*,\s*[0-9a-f.:/]+)*$/i, "must be a comma-separated list of proxy IPs or CIDRs")
    .optional(),
  // Issue 24, the inbox (DESIGN §2.3.2): Meta's and Microsoft's services, and the key tokens are sealed with.
  META_GRAPH_URL: z
    .string()
    .url("must be a URL such as https://graph.facebook.com")
    .default("https://graph.facebook.com"),
  MS_GRAPH_URL: z
    .string()
    .url("must be a URL such as https://graph.microsoft.com")
    .default("https://graph.microsoft.com"),
  MS_LOGIN_URL: z
    .string()
    .url("must be a URL such as https://login.microsoftonline.com")
    .default("https://login.microsoftonline.com"),
  META_APP_SECRET: z.string().optional(),
  META_VERIFY_TOKEN: z.string().optional(),
  // Instagram's business login (the Instagram API with Instagram Login): its app's id and secret, its sign-in page,
  // the code exchange and the Graph API it answers on.
  IG_APP_ID: z.string().optional(),
  IG_APP_SECRET: z.string().optional(),
  IG_LOGIN_URL: z.string().url("must be a URL such as https://www.instagram.com").default("https://www.instagram.com"),
  IG_API_URL: z.string().url("must be a URL such as https://api.instagram.com").default("https://api.instagram.com"),
  IG_GRAPH_URL: z
    .string()
    .url("must be a URL such as https://graph.instagram.com")
    .default("https://graph.instagram.com"),
  MS_CLIENT_ID: z.string().optional(),
  MS_CLIENT_SECRET: z.string().optional(),
  // Issue 25: files in an S3-compatible store instead of DATA_DIR/storage (S3_BUCKET set chooses it).
  S3_ENDPOINT: z.string().url("must be a URL such as https://s3.eu-west-1.amazonaws.com").optional(),
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      "must be an S3 bucket name (3-63 lower-case letters, digits, dots, dashes)",
    )
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, "must be a region such as us-east-1")
    .default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.enum(["true", "false", "1", "0"], { message: "must be true or false" }).default("false"),
  SECRETS_KEY: z
    .string()
    .regex(/^(?:[A-Za-z0-9+/_-]{43}=?|[0-9a-fA-F]{64})$/, "must be 32 bytes as 64 hex digits or base64")
    .optional(),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  replicaUrl: string | undefined;
  dataDir: string;
  instanceId: string;
  metricsToken: string | undefined;
  shutdown: { drainMs: number; timeoutMs: number };
  baseDomain: string;
  publicUrl: string;
  jwtSecret: string;
  smtpUrl: string | undefined;
  seed: "demo" | "basic" | "none";
  production: boolean;
  trustProxy: false | string[];
  logLevel: string;
  webDist: string;
  statementTimeoutMs: number;
  maxRows: number;
  jobRetryMs: number;
  auth: AuthConfig;
  inbox: InboxConfig;
  storage: StorageSettings; // where files' bytes live (platform/storage/disk.ts)
};

// Issue 24: where Meta's Graph API and Microsoft's login and Graph are, the app's secrets, and the sealing key.
export type InboxConfig = {
  metaGraphUrl: string;
  msGraphUrl: string;
  msLoginUrl: string;
  metaAppSecret: string | null; // unset: /webhooks/meta refuses every POST (nothing can be verified)
  metaVerifyToken: string | null;
  msClientId: string | null;
  msClientSecret: string | null;
  igAppId: string | null; // unset: Instagram connects only with a pasted token (channel_connect)
  igAppSecret: string | null;
  igLoginUrl: string;
  igApiUrl: string;
  igGraphUrl: string;
  secretsKey: Buffer; // 32 bytes
};

export type AuthConfig = {
  redirectPath: string;
  rateLimits: RateLimits;
  // A rotated refresh token presented again within this many seconds returns the current token (several tabs).
  refreshReuseSeconds: number;
  // E-mail or password changes need a sign-in this recent, or a reauthentication nonce.
  reauthWindowSeconds: number;
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty variables count as unset, as shells and .env files often leave them.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    replicaUrl: e.DATABASE_REPLICA_URL,
    dataDir,
    instanceId: e.INSTANCE_ID ?? `${hostname()}:${process.pid}`,
    metricsToken: e.METRICS_TOKEN,
    shutdown: { drainMs: e.SHUTDOWN_DRAIN_MS, timeoutMs: e.SHUTDOWN_TIMEOUT_MS },
    baseDomain: e.BASE_DOMAIN.toLowerCase(),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ""),
    jwtSecret: e.JWT_SECRET ?? generatedSecret(dataDir),
    smtpUrl: e.SMTP_URL,
    seed: e.SEED,
    production: e.NODE_ENV === "production",
    trustProxy: e.TRUST_PROXY ? e.TRUST_PROXY.split(",").map((p) => p.trim()) : false,
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST ?? path.join(import.meta.dirname, "../../web/dist")),
    statementTimeoutMs: e.STATEMENT_TIMEOUT_MS,
    maxRows: e.MAX_ROWS,
    jobRetryMs: e.JOB_RETRY_MS,
    auth: {
      redirectPath: e.AUTH_REDIRECT_PATH,
      rateLimits: rateLimitsOrThrow(e.AUTH_RATE_LIMITS),
      refreshReuseSeconds: e.AUTH_REFRESH_REUSE_SECONDS,
      reauthWindowSeconds: e.AUTH_REAUTH_WINDOW_SECONDS,
    },
    inbox: {
      metaGraphUrl: e.META_GRAPH_URL.replace(/\/$/, ""),
      msGraphUrl: e.MS_GRAPH_URL.replace(/\/$/, ""),
      msLoginUrl: e.MS_LOGIN_URL.replace(/\/$/, ""),
      metaAppSecret: e.META_APP_SECRET ?? null,
      metaVerifyToken: e.META_VERIFY_TOKEN ?? null,
      msClientId: e.MS_CLIENT_ID ?? null,
      msClientSecret: e.MS_CLIENT_SECRET ?? null,
      igAppId: e.IG_APP_ID ?? null,
      igAppSecret: e.IG_APP_SECRET ?? null,
      igLoginUrl: e.IG_LOGIN_URL.replace(/\/$/, ""),
      igApiUrl: e.IG_API_URL.replace(/\/$/, ""),
      igGraphUrl: e.IG_GRAPH_URL.replace(/\/$/, ""),
      secretsKey: secretsKey(e.SECRETS_KEY, dataDir),
    },
    storage: storageSettings(e),
  };
}

// S3_BUCKET set: the S3-compatible store, which then needs its keys; else the directory DATA_DIR/storage.
function storageSettings(e: z.output<typeof EnvSchema>): StorageSettings {
  if (!e.S3_BUCKET) return { kind: "directory" };
  const missing = (["S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const).filter((k) => !e[k]);
  if (missing.length) {
    throw new ConfigError(
      `Invalid configuration:\n${missing.map((k) => `  ${k}: must be set when S3_BUCKET is`).join("\n")}`,
    );
  }
  return {
    kind: "s3",
    endpoint: (e.S3_ENDPOINT ?? `https://s3.${e.S3_REGION}.amazonaws.com`).replace(/\/$/, ""),
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID as string,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY as string,
    forcePathStyle: e.S3_FORCE_PATH_STYLE === "true" || e.S3_FORCE_PATH_STYLE === "1",
  };
}

// DESIGN §3.1: SECRETS_KEY (32 bytes, hex or base64), else a key generated once into DATA_DIR, like JWT_SECRET.
function secretsKey(given: string | undefined, dataDir: string): Buffer {
  if (given) return /^[0-9a-fA-F]{64}$/.test(given) ? Buffer.from(given, "hex") : Buffer.from(given, "base64");
  const file = path.join(dataDir, "secrets-key");
  try {
    return Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  } catch {
    const key = randomBytes(32);
    writeFileSync(file, key.toString("base64"), { mode: 0o600 });
    return key;
  }
}

function rateLimitsOrThrow(text: string | undefined): RateLimits {
  try {
    return parseRateLimits(text);
  } catch (err) {
    throw new ConfigError(`Invalid configuration:\n  AUTH_RATE_LIMITS: ${(err as Error).message}`);
  }
}

// DESIGN §3.1: without JWT_SECRET a key is generated once and kept in DATA_DIR.
function generatedSecret(dataDir: string): string {
  const file = path.join(dataDir, "jwt-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    const secret = randomBytes(48).toString("base64url");
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

// The entry points' configuration (the server, `npm run migrate`): a bad variable is said plainly and the process
// exits 2, with no stack trace.
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
}
