-- Issue 22 "Warehouse": the warehouse staff's new permissions in the roles workspaces already have (new workspaces
-- copy permissions.ts): pick lists, the delivery order draft a finished pick list makes, counting (applying a count
-- stays with owners and admins) and the products' bins.
UPDATE "workspace_role" wr
   SET "permissions" = wr."permissions" || ARRAY(SELECT p FROM unnest(g.grants) AS p WHERE NOT (p = ANY (wr."permissions")))
  FROM (VALUES (6, ARRAY['pick_list.*', 'delivery_order.create', 'stock_count.read', 'stock_count.create',
                         'stock_count.submit', 'product_bin.*'])) AS g(base_role_id, grants)
 WHERE wr."base_role_id" = g.base_role_id;
