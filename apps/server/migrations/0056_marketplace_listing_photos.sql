ALTER TABLE "marketplace_product" ADD COLUMN "photos" jsonb DEFAULT '[]'::jsonb NOT NULL;
