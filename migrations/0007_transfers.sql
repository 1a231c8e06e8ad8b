-- Issue 15: live transfers (partners, API keys, delivery settings, transfers and their events).
ALTER TABLE `users` ADD `account_type` text DEFAULT 'buyer' NOT NULL CHECK (`account_type` IN ('buyer', 'partner'));
--> statement-breakpoint
CREATE TABLE `partners` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`application_id` text,
	`business_name` text NOT NULL,
	`did_number` text NOT NULL,
	`daily_call_cap` integer NOT NULL,
	`pay_per_transfer_cents` integer NOT NULL,
	`payment_terms` text NOT NULL CHECK (`payment_terms` IN ('Net 7', 'Net 15', 'Net 30')),
	`time_zone` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`application_id`) REFERENCES `partner_applications`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `partners_user_unique` ON `partners` (`user_id`);
--> statement-breakpoint
CREATE UNIQUE INDEX `partners_application_unique` ON `partners` (`application_id`);
--> statement-breakpoint
CREATE TABLE `single_use_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL CHECK (`purpose` IN ('partner_invitation', 'delivery_setup')),
	`user_id` text,
	`order_id` text,
	`email` text,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `single_use_tokens_user_idx` ON `single_use_tokens` (`user_id`,`purpose`);
--> statement-breakpoint
CREATE INDEX `single_use_tokens_order_idx` ON `single_use_tokens` (`order_id`,`purpose`);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`partner_id` text NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`prefix` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`revoked_at` integer,
	`last_used_at` integer,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_unique` ON `api_keys` (`key_hash`);
--> statement-breakpoint
CREATE INDEX `api_keys_partner_idx` ON `api_keys` (`partner_id`,`created_at`);
--> statement-breakpoint
CREATE TABLE `order_delivery` (
	`order_id` text PRIMARY KEY NOT NULL,
	`setup_status` text DEFAULT 'awaiting_setup' NOT NULL CHECK (`setup_status` IN ('awaiting_setup', 'ready')),
	`transfer_phone` text,
	`states` text DEFAULT '[]' NOT NULL,
	`hours_start_minute` integer,
	`hours_end_minute` integer,
	`days` text,
	`time_zone` text,
	`per_day_cap` integer,
	`paused` integer DEFAULT false NOT NULL,
	`paused_reason` text,
	`paused_at` integer,
	`transfers_total` integer NOT NULL,
	`transfers_billable` integer DEFAULT 0 NOT NULL,
	`transfers_not_charged` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `order_delivery_routing_idx` ON `order_delivery` (`setup_status`,`paused`);
--> statement-breakpoint
CREATE TABLE `order_delivery_states` (
	`state` text NOT NULL,
	`order_id` text NOT NULL,
	PRIMARY KEY(`state`, `order_id`),
	FOREIGN KEY (`order_id`) REFERENCES `order_delivery`(`order_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `order_delivery_states_order_idx` ON `order_delivery_states` (`order_id`);
--> statement-breakpoint
CREATE TABLE `transfers` (
	`id` text PRIMARY KEY NOT NULL,
	`partner_id` text NOT NULL,
	`api_key_id` text,
	`order_id` text NOT NULL,
	`buyer_user_id` text,
	`buyer_key` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`phone` text NOT NULL,
	`state` text NOT NULL,
	`zip` text,
	`age` integer,
	`opt_in_at` integer NOT NULL,
	`opt_in_url` text NOT NULL,
	`trusted_form_url` text,
	`transfer_phone` text NOT NULL,
	`status` text DEFAULT 'routed' NOT NULL CHECK (`status` IN ('routed', 'connected', 'completed', 'no_answer', 'failed', 'expired')),
	`routed_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`connected_at` integer,
	`ended_at` integer,
	`duration_seconds` integer,
	`billable` integer DEFAULT false NOT NULL,
	`recording_url` text,
	`buyer_local_day` text NOT NULL,
	`partner_local_day` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`api_key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`buyer_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `transfers_order_day_idx` ON `transfers` (`order_id`,`buyer_local_day`,`status`);
--> statement-breakpoint
CREATE INDEX `transfers_order_hold_idx` ON `transfers` (`order_id`,`status`,`expires_at`);
--> statement-breakpoint
CREATE INDEX `transfers_duplicate_idx` ON `transfers` (`phone`,`buyer_key`,`routed_at`);
--> statement-breakpoint
CREATE INDEX `transfers_partner_day_idx` ON `transfers` (`partner_id`,`partner_local_day`);
--> statement-breakpoint
CREATE INDEX `transfers_partner_routed_idx` ON `transfers` (`partner_id`,`routed_at`);
--> statement-breakpoint
CREATE INDEX `transfers_order_routed_idx` ON `transfers` (`order_id`,`routed_at`);
--> statement-breakpoint
CREATE TABLE `transfer_events` (
	`transfer_id` text NOT NULL,
	`type` text NOT NULL,
	`received_at` integer NOT NULL,
	`payload` text DEFAULT '{}' NOT NULL,
	PRIMARY KEY(`transfer_id`, `type`),
	FOREIGN KEY (`transfer_id`) REFERENCES `transfers`(`id`) ON UPDATE no action ON DELETE cascade
);
