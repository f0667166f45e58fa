import { RESOURCES } from "@workmetrics/domain/resources";
import { getTableName, sql } from "drizzle-orm";
import type { Db, Tx } from "./database.ts";

// Issue 5 item 8: exact per-workspace row counts without counting. Every tenant resource's table gets the
// statement-level triggers of migration 0009 (workmetrics_count_rows); a table that did not have them yet is
// counted once, under a lock that holds writers off, in the same transaction. Run after migrations on every start,
// like secureTenantTables, so a resource added later is counted from its first start.
// Issue 10 §1: the count takes a row lock per table and workspace on every write, which would serialise a workspace's
// postings on document lines; a resource nobody lists unfiltered opts out (`keptCount: false`) and counts its rows.
export const COUNTED_TABLES: ReadonlySet<string> = new Set(
  RESOURCES.filter((r) => r.scope === "tenant" && r.keptCount !== false).map((r) => getTableName(r.table)),
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
      await tx.execute(sql`delete from row_count where table_name = ${table}`);
      await tx.execute(sql`insert into row_count (workspace_id, table_name, n)
        select workspace_id, ${table}, count(*) from ${t} group by workspace_id`);
    }
    await keepWorkspaces(tx);
  });
}

// Records never move between workspaces: every table with a workspace_id (counted or not) refuses a changed one.
async function keepWorkspaces(tx: Tx): Promise<void> {
  const res = await tx.execute(sql`
    select c.relname as name from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attname = 'workspace_id' and not a.attisdropped
    where n.nspname = 'public' and c.relkind = 'r' and c.relname <> 'row_count'
      and not exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = c.relname || '_keep_workspace')`);
  for (const { name } of res.rows as Array<{ name: string }>) {
    await tx.execute(sql`create trigger ${sql.identifier(`${name}_keep_workspace`)} before update of workspace_id
      on ${sql.identifier(name)} for each row execute function workmetrics_keep_workspace()`);
  }
}

// The exact number of rows `table` holds in the request's workspace, as a scalar subquery for the read statement
// (same snapshot as the page it accompanies). Only valid when the read sees every row of the workspace.
export const countedRows = (table: string, workspaceId: string) =>
  sql`coalesce((select n from row_count where workspace_id = ${workspaceId}::uuid and table_name = ${table}), 0)`;
