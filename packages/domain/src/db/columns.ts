import { sql } from "drizzle-orm";
import {
  bigint,
  type ExtraConfigColumn,
  foreignKey,
  index,
  type PgColumn,
  pgPolicy,
  primaryKey,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

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

// The fail-closed policy every tenant table gets (DESIGN §2.2, second wall). FORCE and the grants to
// workmetrics_app are applied after migrations to every table with a workspace_id (platform/db/tenant-security.ts).
export const tenantPolicy = (table: string) =>
  pgPolicy(`${table}_tenant`, {
    as: "permissive",
    for: "all",
    to: "workmetrics_app",
    using: sql`workspace_id = ${currentWorkspace}`,
    withCheck: sql`workspace_id = ${currentWorkspace}`,
  });

// Key, workspace foreign key and policy of a tenant table with an `id` column: spread into its extra config.
export const tenantKeys = (
  table: string,
  t: { workspaceId: PgColumn; id: PgColumn },
  workspaceTable: { id: PgColumn },
) => [
  primaryKey({ columns: [t.workspaceId, t.id] }),
  foreignKey({ columns: [t.workspaceId], foreignColumns: [workspaceTable.id] }),
  tenantPolicy(table),
];

// Trigram indexes behind the quick search (`ilike '%…%'` on a resource's search columns) of the tables that grow
// large: finding one product among 200,000 reads a few index pages instead of every row (pg_trgm, migration 0010).
export const searchIndexes = (table: string, columns: ExtraConfigColumn[]) =>
  columns.map((c) => index(`${table}_${c.name}_trgm_idx`).using("gin", c.op("gin_trgm_ops")));

// A reference to another row of the same workspace: (workspace_id, x_id) → (workspace_id, id) (DESIGN §2).
export const sameWorkspace = (
  name: string,
  from: [PgColumn, PgColumn],
  to: { workspaceId: PgColumn; id: PgColumn },
  onDelete: "cascade" | "no action" = "no action",
) => foreignKey({ name, columns: from, foreignColumns: [to.workspaceId, to.id] }).onDelete(onDelete);
