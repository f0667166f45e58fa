import { sql } from "drizzle-orm";
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { tenantPolicy } from "./columns.ts";

// Issue 20 §1: the one job queue, in PostgreSQL on both engines (a FOR UPDATE SKIP LOCKED queue). A job is written
// in the transaction of the command that causes it (the outbox): a command that rolls back leaves no job, one that
// commits leaves exactly one. `workspace_id` is null for platform jobs (auth mails, sweeps); a request sees only its
// own workspace's jobs (RLS, DESIGN §2.2). `singleton_key` makes a scheduled run once per slot across instances.
// `doc_type`/`doc_id` tie a job to the document it is about (an e-mail's state on the document's history).
export const job = pgTable(
  "job",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    workspaceId: uuid("workspace_id"),
    name: text("name").notNull(),
    payload: jsonb("payload").notNull().default({}),
    // queued → running → done; a failure goes back to queued with a later run_at until max_attempts, then dead.
    status: text("status").notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(5),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastError: text("last_error"),
    singletonKey: text("singleton_key"),
    docType: text("doc_type"),
    docId: bigint("doc_id", { mode: "number" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp("done_at", { withTimezone: true }),
  },
  (t) => [
    index("job_due_idx").on(t.runAt).where(sql`status = 'queued'`),
    index("job_doc_idx").on(t.workspaceId, t.docType, t.docId),
    uniqueIndex("job_singleton_idx").on(t.name, t.singletonKey),
    tenantPolicy("job"),
  ],
);

// DESIGN §2.3.2: the first answer of a command for a (workspace, user, Idempotency-Key) is kept for 24 h; a repeat
// returns it without running the command, the same key with another body is refused (422).
export const idempotencyKey = pgTable(
  "idempotency_key",
  {
    workspaceId: uuid("workspace_id").notNull(),
    userId: uuid("user_id").notNull(),
    key: text("key").notNull(),
    fn: text("fn").notNull(),
    requestHash: text("request_hash").notNull(),
    statusCode: integer("status_code").notNull(),
    response: jsonb("response"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull().default(sql`now() + interval '24 hours'`),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId, t.key] }),
    index("idempotency_key_expires_idx").on(t.expiresAt),
    tenantPolicy("idempotency_key"),
  ],
);
