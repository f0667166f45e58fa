-- Issue 5: trigram indexes behind the quick search of the tables that grow large (packages/domain columns.ts
-- searchIndexes). pg_trgm is a trusted extension (PostgreSQL 13+); PGlite loads it from its contrib bundle.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "company_name_trgm_idx" ON "company" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "company_uen_trgm_idx" ON "company" USING gin ("uen" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "company_email_trgm_idx" ON "company" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "company_phone_trgm_idx" ON "company" USING gin ("phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contact_name_trgm_idx" ON "contact" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contact_email_trgm_idx" ON "contact" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contact_phone_trgm_idx" ON "contact" USING gin ("phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "product_sku_trgm_idx" ON "product" USING gin ("sku" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "product_name_trgm_idx" ON "product" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "product_description_trgm_idx" ON "product" USING gin ("description" gin_trgm_ops);