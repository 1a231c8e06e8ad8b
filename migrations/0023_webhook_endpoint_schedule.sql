ALTER TABLE `webhook_endpoints` ADD `sending_until` integer;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `next_send_at` integer;