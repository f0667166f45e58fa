-- A cancelled document owes nothing: the engine now writes 0 to its outstanding when it is cancelled; the ones
-- cancelled before kept what they owed at the time, which lists and their totals still counted.
UPDATE "invoice" SET "outstanding" = 0 WHERE "status" = 'cancelled' AND "outstanding" <> 0;--> statement-breakpoint
UPDATE "debit_note" SET "outstanding" = 0 WHERE "status" = 'cancelled' AND "outstanding" <> 0;--> statement-breakpoint
UPDATE "supplier_invoice" SET "outstanding" = 0 WHERE "status" = 'cancelled' AND "outstanding" <> 0;--> statement-breakpoint
UPDATE "progressive_claim" SET "outstanding" = 0 WHERE "status" = 'cancelled' AND "outstanding" <> 0;
