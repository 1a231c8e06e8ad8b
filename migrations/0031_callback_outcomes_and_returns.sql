-- Call-back outcomes and returns (docs/decisions/0062): the buyer's outcome and when, when an approved
-- return gave the call-back back, and the returned call-back on a return (one return per call-back).
-- Columns added only; the returns CHECK already holds for a call-back (no transfer, no lead).
ALTER TABLE `callback_opportunities` ADD `outcome` text;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `outcome_at` integer;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `returned_at` integer;--> statement-breakpoint
ALTER TABLE `returns` ADD `callback_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `returns_callback_unique` ON `returns` (`callback_id`) WHERE "returns"."callback_id" IS NOT NULL;
