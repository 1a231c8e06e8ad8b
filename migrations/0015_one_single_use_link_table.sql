-- One table for every single-use e-mailed link (password reset, partner invitation, delivery setup),
-- told apart by `purpose`. SQLite cannot widen a CHECK in place, so the table is rebuilt; the reset
-- links of `password_reset_tokens` move into it (still usable until they expire) and that table goes.
CREATE TABLE `single_use_links` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL CHECK (`purpose` IN ('password_reset', 'partner_invitation', 'delivery_setup')),
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
INSERT INTO `single_use_links` (`token_hash`, `purpose`, `user_id`, `order_id`, `email`, `expires_at`, `used_at`, `created_at`)
SELECT `token_hash`, `purpose`, `user_id`, `order_id`, `email`, `expires_at`, `used_at`, `created_at` FROM `single_use_tokens`;
--> statement-breakpoint
INSERT INTO `single_use_links` (`token_hash`, `purpose`, `user_id`, `expires_at`, `used_at`, `created_at`)
SELECT `token_hash`, 'password_reset', `user_id`, `expires_at`, `used_at`, `created_at` FROM `password_reset_tokens`;
--> statement-breakpoint
DROP TABLE `single_use_tokens`;
--> statement-breakpoint
DROP TABLE `password_reset_tokens`;
--> statement-breakpoint
CREATE INDEX `single_use_links_user_idx` ON `single_use_links` (`user_id`,`purpose`);
--> statement-breakpoint
CREATE INDEX `single_use_links_order_idx` ON `single_use_links` (`order_id`,`purpose`);
