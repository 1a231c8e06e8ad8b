CREATE TABLE `do_not_call_alerts` (
	`id` integer PRIMARY KEY NOT NULL,
	`sent_at` integer NOT NULL,
	`numbers` integer NOT NULL,
	`addresses` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `do_not_call_alerts_sent_idx` ON `do_not_call_alerts` (`sent_at`);--> statement-breakpoint
CREATE TABLE `do_not_call_removals` (
	`id` text PRIMARY KEY NOT NULL,
	`number` integer NOT NULL,
	`removed_by` text,
	`reason` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`removed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `do_not_call_removals_number_idx` ON `do_not_call_removals` (`number`,`created_at`);--> statement-breakpoint
ALTER TABLE `do_not_call_requests` ADD `client_hash` text;--> statement-breakpoint
ALTER TABLE `do_not_call_requests` ADD `user_agent` text;--> statement-breakpoint
CREATE INDEX `do_not_call_requests_created_idx` ON `do_not_call_requests` (`created_at`);