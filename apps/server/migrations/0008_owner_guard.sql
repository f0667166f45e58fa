-- Issue 4: a workspace has exactly one owner. No update may make someone the owner or demote the owner
-- (whatever the request: the generic /rest/v1 user update, a custom role based on Owner, a hand-written query).
CREATE OR REPLACE FUNCTION workmetrics_guard_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.role_id = 31 AND OLD.role_id IS DISTINCT FROM 31 THEN
    RAISE EXCEPTION 'A workspace has one owner; choose another role' USING ERRCODE = '23514', CONSTRAINT = 'user_single_owner';
  END IF;
  IF OLD.role_id = 31 AND NEW.role_id IS DISTINCT FROM 31 THEN
    RAISE EXCEPTION 'The owner''s role cannot be changed' USING ERRCODE = '23514', CONSTRAINT = 'user_single_owner';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER user_guard_owner BEFORE UPDATE OF role_id ON "user" FOR EACH ROW EXECUTE FUNCTION workmetrics_guard_owner();
