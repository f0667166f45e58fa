ALTER TABLE "workspace" ADD COLUMN "business_address" text;--> statement-breakpoint
ALTER TABLE "workspace" ADD COLUMN "uen" text;--> statement-breakpoint
ALTER TABLE "workspace" ADD COLUMN "gst_registration_number" text;