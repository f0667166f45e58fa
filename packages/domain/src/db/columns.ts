import { sql } from "drizzle-orm";
import { bigint, timestamp, uuid } from "drizzle-orm/pg-core";

// Shared column sets, spread into tables rather than restated (STYLE: "spread, not restated").
export const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

// Every tenant table starts with workspace_id, first in its primary key (DESIGN §2: Citus-ready).
export const tenantColumns = {
  workspaceId: uuid("workspace_id").notNull(),
  id: bigint("id", { mode: "number" }).generatedByDefaultAsIdentity({ startWith: 1000 }),
};

export const currentWorkspace = sql`nullif(current_setting('app.workspace_id', true), '')::uuid`;
