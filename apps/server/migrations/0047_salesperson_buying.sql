-- Issue 21 §1 "Least privilege": a salesperson no longer reads the buying documents (purchase orders, supplier
-- delivery orders, supplier invoices, supplier discount forms) — in the roles workspaces already have, as new
-- workspaces get it from permissions.ts (BUYING_DENIED). Roles based on the salesperson's get it too.
UPDATE "workspace_role" wr
   SET "permissions" = wr."permissions" || ARRAY(SELECT p FROM unnest(ARRAY['!purchase_order.*', '!supplier_delivery_order.*',
       '!supplier_invoice.*', '!supplier_discount_form.*']) AS p WHERE NOT (p = ANY (wr."permissions")))
 WHERE wr."base_role_id" = 3;
