ALTER TABLE `suppression_lists` ADD `version_upload_id` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `suppression_lists` ADD `sweeping_upload_id` integer;--> statement-breakpoint
ALTER TABLE `suppression_numbers` ADD `staged_by` integer;--> statement-breakpoint
ALTER TABLE `suppression_upload_batches` ADD `relisted` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `suppression_upload_batches` ADD `applied` integer DEFAULT 0 NOT NULL;