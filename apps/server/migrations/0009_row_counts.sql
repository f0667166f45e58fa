CREATE TABLE "row_count" (
	"workspace_id" uuid NOT NULL,
	"table_name" text NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "row_count_workspace_id_table_name_pk" PRIMARY KEY("workspace_id","table_name")
);
--> statement-breakpoint
ALTER TABLE "row_count" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "row_count" ADD CONSTRAINT "row_count_workspace_id_workspace_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspace"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "row_count_tenant" ON "row_count" AS PERMISSIVE FOR ALL TO "workmetrics_app" USING (workspace_id = nullif(current_setting('app.workspace_id', true), '')::uuid) WITH CHECK (workspace_id = nullif(current_setting('app.workspace_id', true), '')::uuid);--> statement-breakpoint
-- One statement-level trigger function for every counted table (installed by platform/db/row-counts.ts): it adds
-- the statement's inserted rows and subtracts its deleted ones per workspace, in the writing transaction. It runs
-- as its owner so a platform write naming another workspace still counts; it only ever writes counts of rows the
-- statement itself touched.
CREATE OR REPLACE FUNCTION workmetrics_count_rows() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO row_count (workspace_id, table_name, n)
      SELECT workspace_id, TG_TABLE_NAME, count(*) FROM new_rows GROUP BY workspace_id ORDER BY workspace_id
      ON CONFLICT (workspace_id, table_name) DO UPDATE SET n = row_count.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE row_count r SET n = r.n - d.n
      FROM (SELECT workspace_id, count(*) AS n FROM old_rows GROUP BY workspace_id) d
      WHERE r.workspace_id = d.workspace_id AND r.table_name = TG_TABLE_NAME;
  ELSIF TG_OP = 'TRUNCATE' THEN
    DELETE FROM row_count WHERE table_name = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION workmetrics_count_rows() FROM PUBLIC;
--> statement-breakpoint
-- Records never move between workspaces (RLS's WITH CHECK already refuses it to the request role; this holds for
-- every connection, and keeps the counts above exact without an UPDATE trigger on every write).
CREATE OR REPLACE FUNCTION workmetrics_keep_workspace() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.workspace_id IS DISTINCT FROM OLD.workspace_id THEN
    RAISE EXCEPTION 'Records cannot move to another workspace' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END
$$;
