CREATE INDEX "customer_order_source_idx" ON "customer_order" USING btree ("workspace_id","source_type","source_id");--> statement-breakpoint
CREATE INDEX "delivery_instruction_source_idx" ON "delivery_instruction" USING btree ("workspace_id","source_type","source_id");--> statement-breakpoint
CREATE INDEX "credit_note_source_idx" ON "credit_note" USING btree ("workspace_id","source_type","source_id");--> statement-breakpoint
CREATE INDEX "debit_note_source_idx" ON "debit_note" USING btree ("workspace_id","source_type","source_id");--> statement-breakpoint
CREATE INDEX "goods_return_note_source_idx" ON "goods_return_note" USING btree ("workspace_id","source_type","source_id");--> statement-breakpoint
CREATE INDEX "delivery_order_source_idx" ON "delivery_order" USING btree ("workspace_id","source_type","source_id");--> statement-breakpoint
CREATE INDEX "invoice_source_idx" ON "invoice" USING btree ("workspace_id","source_type","source_id");--> statement-breakpoint
CREATE INDEX "quotation_source_idx" ON "quotation" USING btree ("workspace_id","source_type","source_id");--> statement-breakpoint
CREATE INDEX "sales_order_source_idx" ON "sales_order" USING btree ("workspace_id","source_type","source_id");