-- Issue 21 items 10, 12, 15.
-- A suspended partner's API keys answer 403 until an admin reinstates it (null = active).
ALTER TABLE `partners` ADD `suspended_at` integer;
--> statement-breakpoint
-- When a batch was last handed to the Queue: a batch still queued long after it is re-sent by the sweep.
-- Batches queued before this migration count as queued at 0, so the first sweep re-sends them.
ALTER TABLE `import_batches` ADD `queued_at` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE INDEX `import_batches_queued_idx` ON `import_batches` (`queued_at`) WHERE `status` = 'queued';
--> statement-breakpoint
-- Set when the lead's order was fully refunded: it leaves My Leads, stays off sale and cannot be returned.
ALTER TABLE `aged_leads` ADD `refunded_at` integer;
