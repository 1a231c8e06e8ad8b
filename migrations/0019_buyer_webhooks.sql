-- Issue 25: buyer webhooks (decisions 0037, 0044). Endpoints with encrypted signing secrets, the events
-- outbox (written in the batch of the fact it tells of) and one delivery row per event and endpoint: the log.
CREATE TABLE `webhook_deliveries` (
	`event_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`type` text NOT NULL,
	`subject` text NOT NULL,
	`rank` integer NOT NULL,
	`event_created_at` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`round_attempts` integer DEFAULT 0 NOT NULL,
	`first_attempt_at` integer,
	`last_attempt_at` integer,
	`next_attempt_at` integer NOT NULL,
	`leased_until` integer,
	`last_status_code` integer,
	`last_error` text,
	`latency_ms` integer,
	`answer` text,
	PRIMARY KEY(`event_id`, `endpoint_id`),
	FOREIGN KEY (`event_id`) REFERENCES `webhook_events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "webhook_deliveries_status_check" CHECK("webhook_deliveries"."status" IN ('pending', 'retrying', 'delivered', 'dead_letter'))
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_log_idx` ON `webhook_deliveries` (`endpoint_id`,"event_created_at" DESC,`event_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_open_subject_idx` ON `webhook_deliveries` (`endpoint_id`,`subject`) WHERE "webhook_deliveries"."status" IN ('pending', 'retrying');--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`next_attempt_at`) WHERE "webhook_deliveries"."status" IN ('pending', 'retrying');--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`disabled_at` integer,
	`secret` text NOT NULL,
	`secret_created_at` integer NOT NULL,
	`previous_secret` text,
	`previous_secret_expires_at` integer,
	`failing_since` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_user_idx` ON `webhook_endpoints` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`type` text NOT NULL,
	`subject_id` text NOT NULL,
	`payload` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "webhook_events_type_check" CHECK("webhook_events"."type" IN ('lead.purchased', 'transfer.routed', 'transfer.connected', 'transfer.billable', 'transfer.not_charged', 'order.paid', 'order.completed', 'return.decided', 'test'))
);
--> statement-breakpoint
CREATE INDEX `webhook_events_created_idx` ON `webhook_events` (`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_events_subject_idx` ON `webhook_events` (`subject_id`,`type`);