DROP INDEX "journal_month_key";--> statement-breakpoint
ALTER TABLE "journal_month" ADD COLUMN "stripe" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "journal_month_key" ON "journal_month" USING btree ("workspace_id","account_code","month","stripe");--> statement-breakpoint
-- Issue 10 "at least 100 submits/s at 4 connections": one journal_month row per account and month made every posting
-- of a workspace wait for the one before it to commit (they all touch trade debtors, sales and GST this month). Now
-- a transaction takes a stripe of its own for the workspace (the first of eight whose advisory lock is free, held
-- to its end) and adds to that stripe's rows, so concurrent postings never share a row; with all eight taken it
-- waits for one. The reports sum the stripes (they group by account already).
CREATE OR REPLACE FUNCTION workmetrics_journal_stripe(ws uuid) RETURNS smallint LANGUAGE plpgsql SET search_path = public AS $$
DECLARE
  k int := hashtext('journal_month:' || ws::text);
BEGIN
  FOR s IN 0..7 LOOP
    IF pg_try_advisory_xact_lock(k, s) THEN RETURN s; END IF;
  END LOOP;
  PERFORM pg_advisory_xact_lock(k, pg_backend_pid() % 8);
  RETURN (pg_backend_pid() % 8)::smallint;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION workmetrics_journal_stripe(uuid) FROM PUBLIC;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION workmetrics_journal_month() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    WITH s AS (SELECT w, workmetrics_journal_stripe(w) AS stripe FROM (SELECT DISTINCT workspace_id AS w FROM old_lines) d)
    INSERT INTO journal_month AS m (workspace_id, account_code, month, stripe, debit, credit)
    SELECT o.workspace_id, o.account_code, date_trunc('month', e.entry_date)::date, s.stripe, -sum(o.debit), -sum(o.credit)
      FROM old_lines o JOIN s ON s.w = o.workspace_id
        JOIN journal_entry e ON e.workspace_id = o.workspace_id AND e.id = o.entry_id
      GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (workspace_id, account_code, month, stripe)
      DO UPDATE SET debit = m.debit + excluded.debit, credit = m.credit + excluded.credit;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    WITH s AS (SELECT w, workmetrics_journal_stripe(w) AS stripe FROM (SELECT DISTINCT workspace_id AS w FROM new_lines) d)
    INSERT INTO journal_month AS m (workspace_id, account_code, month, stripe, debit, credit)
    SELECT n.workspace_id, n.account_code, date_trunc('month', e.entry_date)::date, s.stripe, sum(n.debit), sum(n.credit)
      FROM new_lines n JOIN s ON s.w = n.workspace_id
        JOIN journal_entry e ON e.workspace_id = n.workspace_id AND e.id = n.entry_id
      GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (workspace_id, account_code, month, stripe)
      DO UPDATE SET debit = m.debit + excluded.debit, credit = m.credit + excluded.credit;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION workmetrics_journal_month_redate() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF date_trunc('month', OLD.entry_date) <> date_trunc('month', NEW.entry_date) THEN
    INSERT INTO journal_month AS m (workspace_id, account_code, month, stripe, debit, credit)
    SELECT l.workspace_id, l.account_code, v.month, workmetrics_journal_stripe(NEW.workspace_id),
        v.sign * sum(l.debit), v.sign * sum(l.credit)
      FROM journal_line l,
        (VALUES (date_trunc('month', OLD.entry_date)::date, -1), (date_trunc('month', NEW.entry_date)::date, 1)) AS v(month, sign)
      WHERE l.workspace_id = NEW.workspace_id AND l.entry_id = NEW.id
      GROUP BY l.workspace_id, l.account_code, v.month, v.sign ORDER BY 1, 2, 3
    ON CONFLICT (workspace_id, account_code, month, stripe)
      DO UPDATE SET debit = m.debit + excluded.debit, credit = m.credit + excluded.credit;
  END IF;
  RETURN NULL;
END
$$;
