-- Call-backs and appointments by CSV (docs/decisions/0069): an import says what its file holds, and a
-- call-back taken in by an import keeps its import and batch (a batch's counts are read back from its rows;
-- a redelivered batch skips the rows it already took). Hand-written ADD COLUMNs: no table rebuild.
ALTER TABLE `imports` ADD `kind` text DEFAULT 'leads' NOT NULL;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `import_id` text;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `import_batch` integer;--> statement-breakpoint
CREATE INDEX `callback_opportunities_import_idx` ON `callback_opportunities` (`import_id`,`import_batch`) WHERE "callback_opportunities"."import_id" IS NOT NULL;
