ALTER TABLE "delivery_instruction" DROP CONSTRAINT "delivery_instruction_driver_id_auth_user_id_fk";
--> statement-breakpoint
ALTER TABLE "delivery_instruction" ADD CONSTRAINT "delivery_instruction_driver_fk" FOREIGN KEY ("workspace_id","driver_id") REFERENCES "public"."user"("workspace_id","id") ON DELETE no action ON UPDATE no action;