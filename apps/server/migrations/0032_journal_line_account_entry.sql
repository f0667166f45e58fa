DROP INDEX "journal_line_account_idx";--> statement-breakpoint
CREATE INDEX "journal_line_account_idx" ON "journal_line" USING btree ("workspace_id","account_code","entry_id");