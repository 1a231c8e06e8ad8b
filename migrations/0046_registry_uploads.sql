CREATE TABLE `registry_upload_files` (
	`id` integer PRIMARY KEY NOT NULL,
	`upload_id` integer NOT NULL,
	`area_code` integer NOT NULL,
	`kind` text NOT NULL,
	`size` integer NOT NULL,
	`object_key` text NOT NULL,
	`multipart_id` text,
	`parts_received` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'waiting' NOT NULL,
	`message` text,
	`line` integer,
	`numbers` integer,
	`added` integer,
	`removed` integer,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`upload_id`) REFERENCES `registry_uploads`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "registry_upload_files_kind_check" CHECK("registry_upload_files"."kind" IN ('full', 'changes')),
	CONSTRAINT "registry_upload_files_status_check" CHECK("registry_upload_files"."status" IN ('waiting', 'receiving', 'received', 'refused', 'applied'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `registry_upload_files_unique` ON `registry_upload_files` (`upload_id`,`area_code`,`kind`);--> statement-breakpoint
CREATE TABLE `registry_upload_parts` (
	`file_id` integer NOT NULL,
	`part_number` integer NOT NULL,
	`etag` text NOT NULL,
	`size` integer NOT NULL,
	PRIMARY KEY(`file_id`, `part_number`),
	FOREIGN KEY (`file_id`) REFERENCES `registry_upload_files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `registry_uploads` (
	`id` integer PRIMARY KEY NOT NULL,
	`scope` text NOT NULL,
	`download_date` text NOT NULL,
	`san` text,
	`status` text DEFAULT 'receiving' NOT NULL,
	`created_by` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`finished_at` integer,
	`applied_at` integer,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "registry_uploads_scope_check" CHECK("registry_uploads"."scope" IN ('national', 'CO', 'FL', 'IN', 'LA', 'MA', 'MO', 'OK', 'PA', 'TN', 'TX', 'WY')),
	CONSTRAINT "registry_uploads_status_check" CHECK("registry_uploads"."status" IN ('receiving', 'applying', 'applied', 'partly_applied', 'replaced'))
);
--> statement-breakpoint
CREATE INDEX `registry_uploads_scope_idx` ON `registry_uploads` (`scope`,`created_at`);