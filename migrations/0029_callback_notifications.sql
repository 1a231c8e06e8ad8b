-- Call-back notifications (docs/decisions/0060): webhook_events takes the `callback.delivered` and
-- `appointment.delivered` types (a CHECK change, so drizzle-kit rebuilds the table), and call-backs get
-- `reminded_at` for the buyer's reminder e-mail 15 minutes before the window.
-- On D1 the rebuild's DROP TABLE deletes every delivery of every event (ON DELETE CASCADE, foreign keys
-- stay on inside a migration): they are copied aside first and put back after the rename.
-- keeps-children: webhook_events
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
	CONSTRAINT "webhook_events_type_check" CHECK("__new_webhook_events"."type" IN ('lead.purchased', 'transfer.routed', 'transfer.connected', 'transfer.billable', 'transfer.not_charged', 'order.paid', 'order.completed', 'return.decided', 'callback.delivered', 'appointment.delivered', 'test'))
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
ALTER TABLE `callback_opportunities` ADD `reminded_at` integer;--> statement-breakpoint
CREATE INDEX `callback_opportunities_reminder_idx` ON `callback_opportunities` (`window_start`) WHERE "callback_opportunities"."reminded_at" IS NULL AND "callback_opportunities"."order_id" IS NOT NULL;