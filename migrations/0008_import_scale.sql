-- Issue 13: a batch records how many rows it brought, so an import's totals are recomputed from its
-- batches and a batch accepted twice (a retried upload) is never counted twice.
ALTER TABLE `import_batches` ADD `rows_received` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE `import_batches` SET `rows_received` = `row_count`;
