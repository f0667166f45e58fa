-- DESIGN §2.2: RLS is forced on tenant tables so even the table owner cannot bypass it.
ALTER TABLE "user" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "company" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO workmetrics_app;
--> statement-breakpoint
GRANT SELECT ON "tier", "role", "channel", "workspace", "case_study", "banner" TO workmetrics_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "user", "company" TO workmetrics_app;
--> statement-breakpoint
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO workmetrics_app;
