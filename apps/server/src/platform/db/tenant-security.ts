import { sql } from "drizzle-orm";
import type { Db } from "./database.ts";

// DESIGN §2.2: every table with a workspace_id gets RLS enabled and forced and is granted to the request role.
// Run after migrations on every start, so no tenant table added later can miss it (the catalog test checks it).
// Issue 20 §3: only what is missing is done — ALTER TABLE takes an exclusive lock held to the end of the block, so
// altering the ~90 tables again at each start stalled every request of the instances already running.
export async function secureTenantTables(db: Db): Promise<void> {
  await db.execute(sql`
    DO $$
    DECLARE r record;
    BEGIN
      FOR r IN
        SELECT * FROM (
          SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity,
            has_table_privilege('workmetrics_app', c.oid, 'SELECT') AND has_table_privilege('workmetrics_app', c.oid, 'INSERT')
              AND has_table_privilege('workmetrics_app', c.oid, 'UPDATE')
              AND has_table_privilege('workmetrics_app', c.oid, 'DELETE') AS granted
          FROM pg_class c
          JOIN pg_namespace n ON n.oid = c.relnamespace
          JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'workspace_id' AND NOT a.attisdropped
          WHERE n.nspname = 'public' AND c.relkind = 'r'
        ) t
        WHERE NOT (t.relrowsecurity AND t.relforcerowsecurity AND t.granted)
      LOOP
        IF NOT r.relrowsecurity THEN
          EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', r.relname);
        END IF;
        IF NOT r.relforcerowsecurity THEN
          EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', r.relname);
        END IF;
        IF NOT r.granted THEN
          EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO workmetrics_app', r.relname);
        END IF;
      END LOOP;
      IF EXISTS (
        SELECT 1 FROM pg_class s JOIN pg_namespace n ON n.oid = s.relnamespace
        -- CASE: has_sequence_privilege fails on any other relation, and a plain AND may be evaluated first
        WHERE n.nspname = 'public'
          AND CASE WHEN s.relkind = 'S' THEN NOT has_sequence_privilege('workmetrics_app', s.oid, 'USAGE') ELSE false END
      ) THEN
        GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO workmetrics_app;
      END IF;
    END
    $$`);
}
