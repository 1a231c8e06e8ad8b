-- Payment hardening (issue 11): who may read an order's status, refunds and disputes, one open
-- reservation per buyer, and the simulated provider's cancelled and refunded intents.
ALTER TABLE `orders` ADD `client_secret_hash` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `refunded_at` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `disputed_at` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `dispute_reason` text;--> statement-breakpoint
CREATE INDEX `orders_user_kind_status_idx` ON `orders` (`user_id`,`kind`,`status`);--> statement-breakpoint
ALTER TABLE `aged_leads` ADD `reserved_by_user_id` text;--> statement-breakpoint
CREATE INDEX `aged_leads_reserved_user_idx` ON `aged_leads` (`reserved_by_user_id`);--> statement-breakpoint
ALTER TABLE `simulated_payment_intents` ADD `refunded_cents` integer DEFAULT 0 NOT NULL;
