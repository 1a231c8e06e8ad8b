-- Revocations (docs/decisions/0082): sold items whose number became new on a shared Do Not Call list, one
-- row per (item, list); webhook_events takes the `lead.suppressed` type (a CHECK change, so drizzle-kit
-- rebuilds the table); delivered call-backs are found by number.
-- On D1 the rebuild's DROP TABLE deletes every delivery of every event (ON DELETE CASCADE, foreign keys
-- stay on inside a migration): they are copied aside first and put back after the rename (as 0029 does).
-- keeps-children: webhook_events
CREATE TABLE `suppression_revocations` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`item_type` text NOT NULL,
	`item_id` text NOT NULL,
	`order_id` text,
	`phone` text NOT NULL,
	`list_id` integer NOT NULL,
	`list_kind` text NOT NULL,
	`sold_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`events_recorded_at` integer,
	`digest_sent_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`list_id`) REFERENCES `suppression_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "suppression_revocations_item_type_check" CHECK("suppression_revocations"."item_type" IN ('lead', 'transfer', 'callback')),
	CONSTRAINT "suppression_revocations_list_kind_check" CHECK("suppression_revocations"."list_kind" IN ('national_dnc', 'state_dnc', 'litigator', 'internal_dnc'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `suppression_revocations_item_unique` ON `suppression_revocations` (`item_type`,`item_id`,`list_id`);--> statement-breakpoint
CREATE INDEX `suppression_revocations_user_idx` ON `suppression_revocations` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `suppression_revocations_pending_idx` ON `suppression_revocations` (`created_at`) WHERE "suppression_revocations"."events_recorded_at" IS NULL;--> statement-breakpoint
CREATE INDEX `suppression_revocations_digest_idx` ON `suppression_revocations` (`created_at`) WHERE "suppression_revocations"."digest_sent_at" IS NULL;--> statement-breakpoint
CREATE TABLE `__keep_webhook_deliveries` AS SELECT * FROM `webhook_deliveries`;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`type` text NOT NULL,
	`subject_id` text NOT NULL,
	`payload` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "webhook_events_type_check" CHECK("__new_webhook_events"."type" IN ('lead.purchased', 'transfer.routed', 'transfer.connected', 'transfer.billable', 'transfer.not_charged', 'order.paid', 'order.completed', 'return.decided', 'callback.delivered', 'appointment.delivered', 'lead.suppressed', 'test'))
);
--> statement-breakpoint
INSERT INTO `__new_webhook_events`("id", "user_id", "type", "subject_id", "payload", "created_at") SELECT "id", "user_id", "type", "subject_id", "payload", "created_at" FROM `webhook_events`;--> statement-breakpoint
DROP TABLE `webhook_events`;--> statement-breakpoint
ALTER TABLE `__new_webhook_events` RENAME TO `webhook_events`;--> statement-breakpoint
INSERT OR IGNORE INTO `webhook_deliveries` SELECT * FROM `__keep_webhook_deliveries`;--> statement-breakpoint
DROP TABLE `__keep_webhook_deliveries`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `webhook_events_created_idx` ON `webhook_events` (`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_events_subject_idx` ON `webhook_events` (`subject_id`,`type`);--> statement-breakpoint
CREATE INDEX `callback_opportunities_phone_delivered_idx` ON `callback_opportunities` (`phone_key`,`delivered_at`);