-- Sessions get an absolute start and a last-seen time (idle timeout); the cookie's name changes too, so
-- sessions from before this migration can no longer be presented: drop them.
DELETE FROM `sessions`;--> statement-breakpoint
ALTER TABLE `sessions` ADD `created_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `last_seen_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Login throttling per client address and per username, counted before the password is checked.
CREATE TABLE `login_throttle` (
	`key` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`attempts` integer NOT NULL,
	`lockouts` integer DEFAULT 0 NOT NULL,
	`locked_until` integer DEFAULT 0 NOT NULL
);
