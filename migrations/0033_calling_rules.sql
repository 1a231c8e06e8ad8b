ALTER TABLE `partner_day_refusals` ADD `calling_window` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `partner_day_refusals` ADD `call_limit` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `transfers_phone_routed_idx` ON `transfers` (`phone`,`routed_at`);