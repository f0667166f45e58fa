-- Requests run as this non-superuser role so row-level security applies (DESIGN §2.2, second wall).
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'workmetrics_app') THEN
    CREATE ROLE workmetrics_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT;
  END IF;
END
$$;
--> statement-breakpoint
GRANT workmetrics_app TO CURRENT_USER;
