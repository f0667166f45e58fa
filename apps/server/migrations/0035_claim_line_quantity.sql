ALTER TABLE "progressive_claim_line" ADD COLUMN "contract_qty" numeric(14, 3);--> statement-breakpoint
ALTER TABLE "progressive_claim_line" ADD COLUMN "cumulative_qty" numeric(14, 3);--> statement-breakpoint
ALTER TABLE "progressive_claim_line" ADD COLUMN "prev_qty" numeric(14, 3);--> statement-breakpoint
ALTER TABLE "progressive_claim_line" ADD CONSTRAINT "progressive_claim_line_measured" CHECK ("progressive_claim_line"."cumulative_qty" is null or ("progressive_claim_line"."contract_qty" > 0 and "progressive_claim_line"."cumulative_qty" between 0 and "progressive_claim_line"."contract_qty"));--> statement-breakpoint
-- The contract quantity of the claim lines made before it was kept: their contract line's.
UPDATE "progressive_claim_line" l SET "contract_qty" = s.qty
  FROM "sales_order_line" s WHERE s.workspace_id = l.workspace_id AND s.id = l.source_line_id AND s.qty > 0;
