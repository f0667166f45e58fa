-- Issue 22 "Warehouse": counting is blind — the warehouse staff submit stock counts but no longer read them (a
-- count's lines carry the books' quantities), in the roles workspaces already have (new ones copy permissions.ts).
UPDATE "workspace_role" SET "permissions" = array_remove("permissions", 'stock_count.read') WHERE "base_role_id" = 6;
