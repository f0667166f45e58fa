import { RESOURCES } from "@workmetrics/domain/resources";
import { getTableName, sql } from "drizzle-orm";
import type { Db } from "./database.ts";

// Issue 5 item 8: exact per-workspace row counts without counting. Every tenant resource's table gets the
// statement-level triggers of migration 0009 (workmetrics_count_rows); a table that did not have them yet is
// counted once, under a lock that holds writers off, in the same transaction. Run after migrations on every start,
// like secureTenantTables, so a resource added later is counted from its first start.
export const COUNTED_TABLES: ReadonlySet<string> = new Set(
  RESOURCES.filter((r) => r.scope === "tenant").map((r) => getTableName(r.table)),
);

export async function installRowCounts(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const res = await tx.execute(
      sql`select c.relname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.tgname = c.relname || '_count_ins'`,
    );
    const installed = new Set((res.rows as Array<{ name: string }>).map((r) => r.name));
    for (const table of COUNTED_TABLES) {
      if (installed.has(table)) continue;
      const t = sql.identifier(table);
      const name = (suffix: string) => sql.identifier(`${table}_${suffix}`);
      await tx.execute(sql`lock table ${t} in share row exclusive mode`);
      await tx.execute(sql`create trigger ${name("count_ins")} after insert on ${t}
        referencing new table as new_rows for each statement execute function workmetrics_count_rows()`);
      await tx.execute(sql`create trigger ${name("count_del")} after delete on ${t}
        referencing old table as old_rows for each statement execute function workmetrics_count_rows()`);
      await tx.execute(sql`create trigger ${name("count_trunc")} after truncate on ${t}
        for each statement execute function workmetrics_count_rows()`);
      await tx.execute(sql`create trigger ${name("keep_workspace")} before update of workspace_id on ${t}
        for each row execute function workmetrics_keep_workspace()`);
      await tx.execute(sql`delete from row_count where table_name = ${table}`);
      await tx.execute(sql`insert into row_count (workspace_id, table_name, n)
        select workspace_id, ${table}, count(*) from ${t} group by workspace_id`);
    }
  });
}

// The exact number of rows `table` holds in the request's workspace, as a scalar subquery for the read statement
// (same snapshot as the page it accompanies). Only valid when the read sees every row of the workspace.
export const countedRows = (table: string, workspaceId: string) =>
  sql`coalesce((select n from row_count where workspace_id = ${workspaceId}::uuid and table_name = ${table}), 0)`;
