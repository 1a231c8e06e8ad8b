CREATE TABLE `aged_leads` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`phone` text NOT NULL,
	`state` text NOT NULL,
	`age_range` text,
	`price_cents` integer DEFAULT 0 NOT NULL,
	`form_fill_time` integer,
	`dedupe_key` text NOT NULL,
	`import_id` text,
	`reserved_by_order_id` text,
	`reserved_until` integer,
	`sold_to_user_id` text,
	`sold_order_id` text,
	`sold_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`import_id`) REFERENCES `imports`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`sold_to_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `aged_leads_dedupe_unique` ON `aged_leads` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `aged_leads_available_idx` ON `aged_leads` (`sold_at`,`reserved_until`,`created_at`);--> statement-breakpoint
CREATE INDEX `aged_leads_state_idx` ON `aged_leads` (`state`);--> statement-breakpoint
CREATE INDEX `aged_leads_sold_to_idx` ON `aged_leads` (`sold_to_user_id`,`sold_at`);--> statement-breakpoint
CREATE INDEX `aged_leads_reserved_order_idx` ON `aged_leads` (`reserved_by_order_id`);--> statement-breakpoint
CREATE TABLE `callback_opportunities` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text NOT NULL,
	`state` text NOT NULL,
	`price_cents` integer NOT NULL,
	`created_by` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `callback_opportunities_created_at_idx` ON `callback_opportunities` (`created_at`);--> statement-breakpoint
CREATE TABLE `import_batches` (
	`import_id` text NOT NULL,
	`batch_number` integer NOT NULL,
	`row_count` integer NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`inserted` integer DEFAULT 0 NOT NULL,
	`duplicates` integer DEFAULT 0 NOT NULL,
	`error` text,
	`processed_at` integer,
	PRIMARY KEY(`import_id`, `batch_number`),
	FOREIGN KEY (`import_id`) REFERENCES `imports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `import_rejections` (
	`import_id` text NOT NULL,
	`row_number` integer NOT NULL,
	`reason` text NOT NULL,
	PRIMARY KEY(`import_id`, `row_number`),
	FOREIGN KEY (`import_id`) REFERENCES `imports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `imports` (
	`id` text PRIMARY KEY NOT NULL,
	`created_by` text,
	`file_name` text,
	`rows_received` integer DEFAULT 0 NOT NULL,
	`rows_inserted` integer DEFAULT 0 NOT NULL,
	`rows_duplicate` integer DEFAULT 0 NOT NULL,
	`rows_rejected` integer DEFAULT 0 NOT NULL,
	`batches_received` integer DEFAULT 0 NOT NULL,
	`batches_done` integer DEFAULT 0 NOT NULL,
	`batches_failed` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `imports_created_at_idx` ON `imports` (`created_at`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`tier` text,
	`quantity` integer NOT NULL,
	`unit_price_cents` integer NOT NULL,
	`total_cents` integer NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`user_id` text,
	`email` text,
	`details` text DEFAULT '{}' NOT NULL,
	`payment_intent_id` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`payment_error` text,
	`paid_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_payment_intent_unique` ON `orders` (`payment_intent_id`);--> statement-breakpoint
CREATE INDEX `orders_kind_status_idx` ON `orders` (`kind`,`status`);--> statement-breakpoint
CREATE INDEX `orders_user_idx` ON `orders` (`user_id`);--> statement-breakpoint
CREATE INDEX `orders_created_at_idx` ON `orders` (`created_at`);--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`to` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`sent_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `outbox_to_idx` ON `outbox` (`to`,`created_at`);--> statement-breakpoint
CREATE TABLE `partner_applications` (
	`id` text PRIMARY KEY NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`business_name` text NOT NULL,
	`business_address` text NOT NULL,
	`city` text NOT NULL,
	`state` text NOT NULL,
	`zip` text NOT NULL,
	`ein` text NOT NULL,
	`main_contact` text NOT NULL,
	`contact_phone` text NOT NULL,
	`contact_email` text NOT NULL,
	`payment_terms` text NOT NULL,
	`number_of_agents` integer NOT NULL,
	`office_hours` text NOT NULL,
	`time_zone` text NOT NULL,
	`pay_per_transfer` text NOT NULL,
	`did_number` text NOT NULL,
	`daily_call_cap` integer NOT NULL,
	`reference1_company_name` text,
	`reference1_contact_name` text,
	`reference1_phone` text,
	`reference2_company_name` text,
	`reference2_contact_name` text,
	`reference2_phone` text,
	`approved_at` integer,
	`reviewed_at` integer,
	`reviewed_by` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`reviewed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `partner_applications_status_idx` ON `partner_applications` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `partner_documents` (
	`id` text PRIMARY KEY NOT NULL,
	`application_id` text NOT NULL,
	`storage_key` text NOT NULL,
	`original_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`uploaded_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`application_id`) REFERENCES `partner_applications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `partner_documents_application_idx` ON `partner_documents` (`application_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `partner_documents_key_unique` ON `partner_documents` (`storage_key`);--> statement-breakpoint
CREATE TABLE `password_reset_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `password_reset_tokens_user_idx` ON `password_reset_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `payment_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`payment_intent_id` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `rate_limit_windows` (
	`key` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`hits` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`username` text NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`first_name` text DEFAULT '' NOT NULL,
	`last_name` text DEFAULT '' NOT NULL,
	`phone` text DEFAULT '' NOT NULL,
	`agency_name` text DEFAULT '' NOT NULL,
	`role` text DEFAULT 'Insurance Agent' NOT NULL,
	`state` text,
	`is_admin` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (lower("email"));--> statement-breakpoint
CREATE INDEX `users_created_at_idx` ON `users` (`created_at`);