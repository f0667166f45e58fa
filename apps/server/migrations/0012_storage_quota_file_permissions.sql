ALTER TABLE "tier" ADD COLUMN "storage_quota_mb" integer DEFAULT 1024 NOT NULL;--> statement-breakpoint
-- Issue 9 §3: each tier's storage quota (TIERS in the domain); Lite keeps the column default, 1 GB.
UPDATE "tier" SET "storage_quota_mb" = CASE "id" WHEN 11 THEN 10240 WHEN 12 THEN 102400 ELSE "storage_quota_mb" END;
--> statement-breakpoint
-- Files now follow the permission matrix; until now every member could do everything with them. Existing roles get
-- the new defaults of the role they are based on (DEFAULT_ROLE_PERMISSIONS), so office staff keep uploading;
-- drivers, POS staff and suppliers get none, owners and admins hold "*" already.
UPDATE "workspace_role" wr
   SET "permissions" = wr."permissions" || ARRAY(SELECT p FROM unnest(g.grants) AS p WHERE NOT (p = ANY (wr."permissions")))
  FROM (VALUES (2, ARRAY['file.*']), (3, ARRAY['file.create']), (6, ARRAY['file.read', 'file.create']),
               (40, ARRAY['file.*']), (41, ARRAY['file.create']), (42, ARRAY['file.create'])) AS g(base_role_id, grants)
 WHERE wr."base_role_id" = g.base_role_id;
--> statement-breakpoint
-- The bucket "My files" uses, so members who may upload need not also be allowed to create buckets.
INSERT INTO "storage_bucket" ("workspace_id", "name") SELECT "id", 'files' FROM "workspace" ON CONFLICT DO NOTHING;
