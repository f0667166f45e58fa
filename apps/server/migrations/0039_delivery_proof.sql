ALTER TABLE "delivery_order" ADD COLUMN "planned_date" date;--> statement-breakpoint
ALTER TABLE "delivery_order" ADD COLUMN "stop_seq" integer;--> statement-breakpoint
ALTER TABLE "delivery_order" ADD COLUMN "arrived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "delivery_order" ADD COLUMN "failure_reason" text;--> statement-breakpoint
ALTER TABLE "delivery_order" ADD COLUMN "failure_note" text;--> statement-breakpoint
ALTER TABLE "delivery_order" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "delivery_order" ADD COLUMN "pod_lat" numeric(9, 6);--> statement-breakpoint
ALTER TABLE "delivery_order" ADD COLUMN "pod_lng" numeric(9, 6);--> statement-breakpoint
ALTER TABLE "delivery_order" ADD COLUMN "pod_accuracy_m" numeric(10, 1);--> statement-breakpoint
ALTER TABLE "delivery_order" ADD COLUMN "pod_device_time" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "delivery_order" ADD COLUMN "pod_server_time" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "delivery_order" ADD COLUMN "pod_signature" text;--> statement-breakpoint
ALTER TABLE "delivery_order" ADD COLUMN "pod_photos" jsonb;--> statement-breakpoint
CREATE INDEX "delivery_order_trip_idx" ON "delivery_order" USING btree ("workspace_id","driver_id","planned_date","stop_seq");--> statement-breakpoint
ALTER TABLE "delivery_order" ADD CONSTRAINT "delivery_order_failure_reason_check" CHECK ("delivery_order"."failure_reason" is null or "delivery_order"."failure_reason" in ('nobody', 'refused', 'wrong_address', 'damaged', 'other'));--> statement-breakpoint
ALTER TABLE "delivery_order" ADD CONSTRAINT "delivery_order_pod_lat_check" CHECK ("delivery_order"."pod_lat" is null or "delivery_order"."pod_lat" between -90 and 90);--> statement-breakpoint
ALTER TABLE "delivery_order" ADD CONSTRAINT "delivery_order_pod_lng_check" CHECK ("delivery_order"."pod_lng" is null or "delivery_order"."pod_lng" between -180 and 180);