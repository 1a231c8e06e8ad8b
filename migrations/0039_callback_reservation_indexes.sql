-- The marketplace's holds by buyer and by order, read by every purchase and release (decision 0061).
CREATE INDEX `callback_opportunities_reserved_by_idx` ON `callback_opportunities` (`reserved_by_user_id`) WHERE "callback_opportunities"."reserved_by_user_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `callback_opportunities_reserved_order_idx` ON `callback_opportunities` (`reserved_order_id`) WHERE "callback_opportunities"."reserved_order_id" IS NOT NULL;
