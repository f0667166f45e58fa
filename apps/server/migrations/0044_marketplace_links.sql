ALTER TABLE "purchase_order" ADD COLUMN "marketplace_order_id" bigint;--> statement-breakpoint
ALTER TABLE "sales_order" ADD COLUMN "marketplace_order_id" bigint;