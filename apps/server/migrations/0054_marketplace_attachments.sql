ALTER TABLE "marketplace_message" ADD COLUMN "attachment_name" text;--> statement-breakpoint
ALTER TABLE "marketplace_message" ADD COLUMN "attachment_mime" text;--> statement-breakpoint
ALTER TABLE "marketplace_message" ADD COLUMN "attachment_size" integer;--> statement-breakpoint
ALTER TABLE "marketplace_message" ADD COLUMN "attachment_key" text;