import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { tenantColumns, tenantKeys, tenantPolicy } from "./columns.ts";
import { authUser, workspace } from "./platform-schema.ts";

// The document engine's own tables (issue 10 §1). Tenant tables: workspace_id first in every key, RLS forced.

// Gapless numbers (STYLE "Gapless numbers from one counter row"): one row per workspace, type and year, taken inside
// the posting transaction with INSERT … ON CONFLICT DO UPDATE SET next = next + 1 RETURNING, so a rolled-back
// submit gives its number back and two submits queue on the row lock. `next` is the number the next document gets.
export const numberCounter = pgTable(
  "number_counter",
  {
    workspaceId: uuid("workspace_id").notNull(),
    docType: text("doc_type").notNull(),
    year: integer("year").notNull(),
    next: bigint("next", { mode: "number" }).notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.docType, t.year] }),
    foreignKey({ columns: [t.workspaceId], foreignColumns: [workspace.id] }),
    tenantPolicy("number_counter"),
    check("number_counter_next_positive", sql`${t.next} >= 1`),
  ],
).enableRLS();

// The audit history of every document (Documenso writes it in the status change's transaction; so do we): who,
// when, which action, from → to, the reason, and the fields a save changed.
export const documentEvent = pgTable(
  "document_event",
  {
    ...tenantColumns,
    docType: text("doc_type").notNull(),
    docId: bigint("doc_id", { mode: "number" }).notNull(),
    action: text("action").notNull(), // create, save, submit, cancel, convert …
    fromStatus: text("from_status"),
    toStatus: text("to_status"),
    reason: text("reason"),
    userId: uuid("user_id").references(() => authUser.id),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    changes: jsonb("changes"), // { field: [before, after] } for a save; what a conversion made
  },
  (t) => [
    ...tenantKeys("document_event", t, workspace),
    index("document_event_doc_idx").on(t.workspaceId, t.docType, t.docId, t.id),
  ],
).enableRLS();
