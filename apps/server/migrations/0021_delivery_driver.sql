ALTER TABLE "delivery_order" ADD COLUMN "driver_id" uuid;--> statement-breakpoint
ALTER TABLE "delivery_order" ADD COLUMN "received_by" text;--> statement-breakpoint
ALTER TABLE "delivery_order" ADD COLUMN "received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "delivery_order" ADD CONSTRAINT "delivery_order_driver_fk" FOREIGN KEY ("workspace_id","driver_id") REFERENCES "public"."user"("workspace_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_order_driver_idx" ON "delivery_order" USING btree ("workspace_id","driver_id");