ALTER TABLE `callback_opportunities` ADD `reserved_order_id` text;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `reserved_until` integer;