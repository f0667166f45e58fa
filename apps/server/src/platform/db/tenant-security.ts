import { sql } from "drizzle-orm";
import type { Db } from "./database.ts";

// DESIGN §2.2: every table with a workspace_id gets RLS enabled and forced and is granted to the request role.
// Run after migrations on every start, so no tenant table added later can miss it (the catalog test checks it).
export async function secureTenantTables(db: Db): Promise<void> {
  await db.execute(sql`
    DO $$
    DECLARE r record;
    BEGIN
      FOR r IN
        SELECT c.relname FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'workspace_id' AND NOT a.attisdropped
        WHERE n.nspname = 'public' AND c.relkind = 'r'
      LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', r.relname);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', r.relname);
        EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO workmetrics_app', r.relname);
      END LOOP;
      GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO workmetrics_app;
    END
    $$`);
}
