ALTER TABLE "workspace" ADD COLUMN "sandbox_expires_at" timestamp with time zone;--> statement-breakpoint
-- Spec §3: the default company (id 9) every workspace starts with stays — unless the whole workspace goes (a
-- sandbox past its 24 hours, issue 21 §3): the sweep names the workspace it removes in app.removing_workspace.
CREATE OR REPLACE FUNCTION company_keep_default() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.id = 9 AND OLD.workspace_id::text IS DISTINCT FROM nullif(current_setting('app.removing_workspace', true), '') THEN
    RAISE EXCEPTION 'The default company cannot be deleted'
      USING ERRCODE = '23514', TABLE = 'company', CONSTRAINT = 'company_default_kept';
  END IF;
  RETURN OLD;
END
$$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "workspace_sandbox_expires_idx" ON "workspace" ("sandbox_expires_at") WHERE "sandbox_expires_at" IS NOT NULL;
