import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { sameWorkspace, tenantColumns, tenantKeys } from "./columns.ts";
import { authUser, user, workspace } from "./platform-schema.ts";

// Issue 22 "One app shell": what the role apps' shell keeps on the server.

// An action a role app kept offline and the server refused on replay (stock gone, document cancelled meanwhile),
// reported by the app so a manager sees and resolves it (never dropped silently). One row per refused action: its
// Idempotency-Key.
export const offlineConflict = pgTable(
  "offline_conflict",
  {
    ...tenantColumns,
    app: text("app").notNull(), // driver, warehouse, pos
    command: text("command").notNull(),
    label: text("label").notNull(), // what the person did, in their app's words
    argsSummary: text("args_summary").notNull().default(""),
    code: text("code").notNull(),
    message: text("message").notNull(), // the server's refusal
    key: text("key").notNull(),
    userId: uuid("user_id").notNull(),
    actedAt: timestamp("acted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    resolvedBy: uuid("resolved_by"),
    resolutionNote: text("resolution_note"),
  },
  (t) => [
    ...tenantKeys("offline_conflict", t, workspace),
    uniqueIndex("offline_conflict_key").on(t.workspaceId, t.userId, t.key),
    index("offline_conflict_open_idx").on(t.workspaceId, t.resolvedAt, t.createdAt),
    sameWorkspace("offline_conflict_user_fk", [t.workspaceId, t.userId], user),
  ],
).enableRLS();

// Signing in once across a workspace's hosts: a single-use code the signed-in side asks for (60 s), exchanged on the
// other host for a session of the same person. Only the code's SHA-256 is kept. A platform table like auth_session
// (no workspace_id: the exchange runs before there is a session to set one), never granted to workmetrics_app.
export const authHandoff = pgTable(
  "auth_handoff",
  {
    codeHash: text("code_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => authUser.id, { onDelete: "cascade" }),
    app: text("app").notNull(), // the host it is for: main, driver, warehouse, pos
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("auth_handoff_user_idx").on(t.userId)],
);
