ALTER TABLE `aged_leads` ADD `import_batch` integer;--> statement-breakpoint
CREATE INDEX `aged_leads_import_idx` ON `aged_leads` (`import_id`,`import_batch`);