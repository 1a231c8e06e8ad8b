-- Call-backs and appointments (src/domain/callbacks.ts): the prospect's window in their time zone, where
-- it came from, its consent evidence, and the paid order it went to. Added columns, so no table rebuild.
ALTER TABLE `callback_opportunities` ADD `kind` text DEFAULT 'callback' NOT NULL;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `zip` text;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `time_zone` text;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `window_start` integer;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `window_end` integer;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `phone_key` integer;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `source` text DEFAULT 'admin' NOT NULL;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `partner_id` text;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `opt_in_at` integer;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `opt_in_url` text;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `consent_text` text;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `ip_address` text;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `trusted_form_url` text;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `jornaya_lead_id` text;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `order_id` text;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `buyer_user_id` text;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `delivered_at` integer;--> statement-breakpoint
CREATE INDEX `callback_opportunities_order_idx` ON `callback_opportunities` (`order_id`);--> statement-breakpoint
CREATE INDEX `callback_opportunities_buyer_phone_idx` ON `callback_opportunities` (`buyer_user_id`,`phone_key`,`delivered_at`);--> statement-breakpoint
CREATE INDEX `callback_opportunities_unassigned_idx` ON `callback_opportunities` (`window_end`) WHERE "callback_opportunities"."order_id" IS NULL;
