ALTER TABLE "marketplace_product" ADD COLUMN "seller_published" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "marketplace_product" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "marketplace_product_search_text_trgm_idx" ON "marketplace_product" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "marketplace_product_browse_idx" ON "marketplace_product" USING btree ("title","id") WHERE "marketplace_product"."published" and "marketplace_product"."seller_published";--> statement-breakpoint
CREATE INDEX "marketplace_product_category_idx" ON "marketplace_product" USING btree ("category") WHERE "marketplace_product"."published" and "marketplace_product"."seller_published";--> statement-breakpoint
ALTER POLICY "marketplace_product_published" ON "marketplace_product" TO workmetrics_app USING (published and seller_published and nullif(current_setting('app.workspace_id', true), '')::uuid is not null);--> statement-breakpoint
-- Issue 23: a listing carries what a buyer's search needs of its seller's profile — whether it is published, and one
-- lower-cased search text (title, category, the seller's name) under one trigram index — so that a search reads one
-- table and its row-level security is a column test, not a look-up per row.
CREATE OR REPLACE FUNCTION workmetrics_marketplace_listing_seller() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  acct record;
BEGIN
  SELECT a.published, a.display_name INTO acct FROM marketplace_account a
   WHERE a.workspace_id = NEW.workspace_id AND a.id = NEW.account_id;
  NEW.seller_published := coalesce(acct.published, false);
  NEW.search_text := lower(NEW.title || ' ' || coalesce(NEW.category, '') || ' ' || coalesce(acct.display_name, ''));
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER marketplace_product_seller BEFORE INSERT OR UPDATE ON "marketplace_product"
  FOR EACH ROW EXECUTE FUNCTION workmetrics_marketplace_listing_seller();--> statement-breakpoint
CREATE OR REPLACE FUNCTION workmetrics_marketplace_account_listings() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  -- The listings' own trigger reads the profile again (this row, as updated).
  UPDATE marketplace_product SET seller_published = NEW.published
   WHERE workspace_id = NEW.workspace_id AND account_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER marketplace_account_listings AFTER UPDATE OF published, display_name ON "marketplace_account"
  FOR EACH ROW WHEN (OLD.published IS DISTINCT FROM NEW.published OR OLD.display_name IS DISTINCT FROM NEW.display_name)
  EXECUTE FUNCTION workmetrics_marketplace_account_listings();--> statement-breakpoint
UPDATE "marketplace_product" SET "seller_published" = "seller_published";
