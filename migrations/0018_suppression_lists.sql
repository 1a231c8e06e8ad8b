-- Issue 24 (docs/product-rules.md rule 40, docs/decisions/0042): suppression lists. A number on an active shared
-- list (the National Do Not Call Registry's files, state lists, litigators, the shop's own /do-not-call
-- requests) is never listed, reserved, sold or routed; a buyer's private list scrubs only that buyer.
CREATE TABLE `suppression_lists` (
	`id` integer PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`owner_user_id` text,
	`refreshed_on` text,
	`status` text DEFAULT 'active' NOT NULL,
	`numbers` integer DEFAULT 0 NOT NULL,
	`created_by` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`owner_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "suppression_lists_kind_check" CHECK("suppression_lists"."kind" IN ('national_dnc', 'state_dnc', 'litigator', 'internal_dnc', 'buyer_private')),
	CONSTRAINT "suppression_lists_status_check" CHECK("suppression_lists"."status" IN ('active', 'deleting', 'deleted')),
	CONSTRAINT "suppression_lists_owner_check" CHECK(("suppression_lists"."kind" = 'buyer_private') = ("suppression_lists"."owner_user_id" IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `suppression_lists_owner_unique` ON `suppression_lists` (`owner_user_id`);
--> statement-breakpoint
CREATE UNIQUE INDEX `suppression_lists_internal_unique` ON `suppression_lists` (`kind`) WHERE "suppression_lists"."kind" = 'internal_dnc';
--> statement-breakpoint
-- The shop's own list: /do-not-call requests go onto it, everywhere at once.
INSERT INTO `suppression_lists` (`kind`, `name`) VALUES ('internal_dnc', 'Do Not Call requests to us');
--> statement-breakpoint
-- One row per (number, list), the primary key is the table: one seek answers which lists hold a number.
CREATE TABLE `suppression_numbers` (
	`number` integer NOT NULL,
	`list_id` integer NOT NULL,
	`added_on` integer NOT NULL,
	`last_upload_id` integer,
	PRIMARY KEY(`number`, `list_id`),
	FOREIGN KEY (`list_id`) REFERENCES `suppression_lists`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `suppression_uploads` (
	`id` integer PRIMARY KEY NOT NULL,
	`list_id` integer NOT NULL,
	`contents` text NOT NULL,
	`file_name` text NOT NULL,
	`refreshed_on` text NOT NULL,
	`status` text DEFAULT 'receiving' NOT NULL,
	`replaces` integer DEFAULT false NOT NULL,
	`batches_expected` integer,
	`batches_received` integer DEFAULT 0 NOT NULL,
	`batches_done` integer DEFAULT 0 NOT NULL,
	`numbers_received` integer DEFAULT 0 NOT NULL,
	`numbers_added` integer DEFAULT 0 NOT NULL,
	`numbers_unchanged` integer DEFAULT 0 NOT NULL,
	`numbers_removed` integer DEFAULT 0 NOT NULL,
	`file_report` text DEFAULT '{}' NOT NULL,
	`swept_to` integer DEFAULT 0 NOT NULL,
	`error` text,
	`created_by` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`finished_at` integer,
	`queued_at` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`list_id`) REFERENCES `suppression_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "suppression_uploads_contents_check" CHECK("suppression_uploads"."contents" IN ('full', 'additions', 'deletions', 'changes')),
	CONSTRAINT "suppression_uploads_status_check" CHECK("suppression_uploads"."status" IN ('receiving', 'applying', 'done', 'failed'))
);
--> statement-breakpoint
CREATE INDEX `suppression_uploads_list_idx` ON `suppression_uploads` (`list_id`,`created_at`);
--> statement-breakpoint
CREATE INDEX `suppression_uploads_applying_idx` ON `suppression_uploads` (`queued_at`) WHERE "suppression_uploads"."status" = 'applying';
--> statement-breakpoint
CREATE TABLE `suppression_upload_batches` (
	`upload_id` integer NOT NULL,
	`batch_number` integer NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`adds` integer DEFAULT 0 NOT NULL,
	`removes` integer DEFAULT 0 NOT NULL,
	`added` integer DEFAULT 0 NOT NULL,
	`removed` integer DEFAULT 0 NOT NULL,
	`error` text,
	`queued_at` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`upload_id`, `batch_number`),
	FOREIGN KEY (`upload_id`) REFERENCES `suppression_uploads`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "suppression_upload_batches_status_check" CHECK("suppression_upload_batches"."status" IN ('queued', 'done', 'failed'))
);
--> statement-breakpoint
CREATE INDEX `suppression_upload_batches_queued_idx` ON `suppression_upload_batches` (`queued_at`) WHERE "suppression_upload_batches"."status" = 'queued';
--> statement-breakpoint
CREATE TABLE `buyer_scrubbed_leads` (
	`user_id` text NOT NULL,
	`lead_id` text NOT NULL,
	PRIMARY KEY(`user_id`, `lead_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `suppression_checks` (
	`subject_type` text NOT NULL,
	`subject_id` text NOT NULL,
	`list_id` integer NOT NULL,
	`list_kind` text NOT NULL,
	`list_name` text NOT NULL,
	`refreshed_on` text,
	`list_numbers` integer NOT NULL,
	`checked_at` integer NOT NULL,
	PRIMARY KEY(`subject_type`, `subject_id`, `list_id`),
	CONSTRAINT "suppression_checks_subject_check" CHECK("suppression_checks"."subject_type" IN ('order', 'transfer'))
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `do_not_call_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`number` integer NOT NULL,
	`email` text,
	`reason` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `do_not_call_requests_number_idx` ON `do_not_call_requests` (`number`);
--> statement-breakpoint
DROP INDEX `aged_leads_listing_idx`;
--> statement-breakpoint
DROP INDEX `aged_leads_state_listing_idx`;
--> statement-breakpoint
DROP INDEX `aged_leads_area_listing_idx`;
--> statement-breakpoint
DROP INDEX `aged_leads_reservations_idx`;
--> statement-breakpoint
DROP INDEX `aged_leads_certified_listing_idx`;
--> statement-breakpoint
ALTER TABLE `aged_leads` ADD `phone_key` integer;
--> statement-breakpoint
ALTER TABLE `aged_leads` ADD `suppressed_at` integer;
--> statement-breakpoint
-- Existing leads: the phone's key by the rule of migration 0006's area code (separators removed, a leading 1 of
-- 11 digits dropped), kept only when it is a 10-digit US number.
UPDATE `aged_leads` SET `phone_key` = (SELECT CASE WHEN n GLOB '[2-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]' THEN CAST(n AS INTEGER) END
    FROM (SELECT CASE WHEN length(d) = 11 AND substr(d, 1, 1) = '1' THEN substr(d, 2) ELSE d END AS n
          FROM (SELECT replace(replace(replace(replace(replace(replace(`phone`, ' ', ''), '(', ''), ')', ''), '-', ''), '.', ''), '+', '') AS d)));
--> statement-breakpoint
-- A lead whose phone is no US number cannot be checked against any list: it is not sold (fail closed).
UPDATE `aged_leads` SET `suppressed_at` = CAST(unixepoch('subsec') * 1000 AS INTEGER) WHERE `phone_key` IS NULL AND `sold_at` IS NULL;
--> statement-breakpoint
-- Every lead by number, sold or not: a sale never touches it (a partial index would lose 200 entries per
-- sale of 200 leads); the statements that use it ask for unsold leads anyway.
CREATE INDEX `aged_leads_phone_key_idx` ON `aged_leads` (`phone_key`);
--> statement-breakpoint
-- Listed leads are unsold, not withheld (migration 0017) and not suppressed: the listing indexes and the counts
-- cover exactly those.
CREATE INDEX `aged_leads_listing_idx` ON `aged_leads` ("created_at" DESC,`id`,`state`,`area_code`) WHERE "aged_leads"."sold_at" IS NULL AND "aged_leads"."withheld" = 0 AND "aged_leads"."suppressed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX `aged_leads_state_listing_idx` ON `aged_leads` (`state`,"created_at" DESC,`id`,`certified`) WHERE "aged_leads"."sold_at" IS NULL AND "aged_leads"."withheld" = 0 AND "aged_leads"."suppressed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX `aged_leads_area_listing_idx` ON `aged_leads` (`area_code`,"created_at" DESC,`id`,`state`,`certified`) WHERE "aged_leads"."sold_at" IS NULL AND "aged_leads"."withheld" = 0 AND "aged_leads"."suppressed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX `aged_leads_certified_listing_idx` ON `aged_leads` ("created_at" DESC,`id`,`state`,`area_code`) WHERE "aged_leads"."sold_at" IS NULL AND "aged_leads"."withheld" = 0 AND "aged_leads"."suppressed_at" IS NULL AND "aged_leads"."certified" = 1;
--> statement-breakpoint
CREATE INDEX `aged_leads_reservations_idx` ON `aged_leads` (`reserved_until`,`state`,`area_code`,`certified`) WHERE "aged_leads"."sold_at" IS NULL AND "aged_leads"."withheld" = 0 AND "aged_leads"."suppressed_at" IS NULL AND "aged_leads"."reserved_until" IS NOT NULL;
--> statement-breakpoint
-- The counts (migrations 0006, 0017) now count listed leads: unsold, not withheld and not suppressed.
DROP TRIGGER `aged_lead_counts_insert`;
--> statement-breakpoint
CREATE TRIGGER `aged_lead_counts_insert` AFTER INSERT ON `aged_leads`
WHEN NEW.`sold_at` IS NULL AND NEW.`withheld` = 0 AND NEW.`suppressed_at` IS NULL BEGIN
  INSERT INTO `aged_lead_counts` (`state`, `area_code`, `unsold`, `certified`)
  VALUES (NEW.`state`, coalesce(NEW.`area_code`, ''), 1, NEW.`certified`)
  ON CONFLICT (`state`, `area_code`) DO UPDATE SET `unsold` = `unsold` + 1, `certified` = `certified` + excluded.`certified`;
END;
--> statement-breakpoint
DROP TRIGGER `aged_lead_counts_delete`;
--> statement-breakpoint
CREATE TRIGGER `aged_lead_counts_delete` AFTER DELETE ON `aged_leads`
WHEN OLD.`sold_at` IS NULL AND OLD.`withheld` = 0 AND OLD.`suppressed_at` IS NULL BEGIN
  UPDATE `aged_lead_counts` SET `unsold` = `unsold` - 1, `certified` = `certified` - OLD.`certified`
  WHERE `state` = OLD.`state` AND `area_code` = coalesce(OLD.`area_code`, '');
END;
--> statement-breakpoint
DROP TRIGGER `aged_lead_counts_update`;
--> statement-breakpoint
CREATE TRIGGER `aged_lead_counts_update` AFTER UPDATE OF `sold_at`, `withheld`, `suppressed_at`, `certified`, `state`, `area_code` ON `aged_leads`
WHEN (OLD.`sold_at` IS NULL AND OLD.`withheld` = 0 AND OLD.`suppressed_at` IS NULL) <> (NEW.`sold_at` IS NULL AND NEW.`withheld` = 0 AND NEW.`suppressed_at` IS NULL)
  OR OLD.`certified` IS NOT NEW.`certified` OR OLD.`state` IS NOT NEW.`state` OR OLD.`area_code` IS NOT NEW.`area_code` BEGIN
  -- An upsert, not an UPDATE: when another AFTER INSERT trigger changes the new row before
  -- aged_lead_counts_insert has counted it, the -1 lands first and the +1 still meets it.
  INSERT INTO `aged_lead_counts` (`state`, `area_code`, `unsold`, `certified`)
  SELECT OLD.`state`, coalesce(OLD.`area_code`, ''), -1, -OLD.`certified`
  WHERE OLD.`sold_at` IS NULL AND OLD.`withheld` = 0 AND OLD.`suppressed_at` IS NULL
  ON CONFLICT (`state`, `area_code`) DO UPDATE SET `unsold` = `unsold` - 1, `certified` = `certified` + excluded.`certified`;
  INSERT INTO `aged_lead_counts` (`state`, `area_code`, `unsold`, `certified`)
  SELECT NEW.`state`, coalesce(NEW.`area_code`, ''), 1, NEW.`certified`
  WHERE NEW.`sold_at` IS NULL AND NEW.`withheld` = 0 AND NEW.`suppressed_at` IS NULL
  ON CONFLICT (`state`, `area_code`) DO UPDATE SET `unsold` = `unsold` + 1, `certified` = `certified` + excluded.`certified`;
END;
--> statement-breakpoint
DELETE FROM `aged_lead_counts`;
--> statement-breakpoint
INSERT INTO `aged_lead_counts` (`state`, `area_code`, `unsold`, `certified`)
SELECT `state`, coalesce(`area_code`, ''), count(*), sum(`certified`) FROM `aged_leads`
WHERE `sold_at` IS NULL AND `withheld` = 0 AND `suppressed_at` IS NULL GROUP BY 1, 2;
--> statement-breakpoint
-- Every insert path (the import, the admin form, scripts) gets the key and the verdict, in the insert's own
-- transaction: one seek into suppression_numbers for a lead no list holds. A number on an active shared list
-- suppresses the lead; one on a buyer's private list scrubs it for that buyer; no US number, no sale.
CREATE TRIGGER `aged_leads_suppression_on_insert` AFTER INSERT ON `aged_leads`
WHEN NEW.`phone_key` IS NULL OR (NEW.`sold_at` IS NULL AND EXISTS (SELECT 1 FROM `suppression_numbers` WHERE `number` = NEW.`phone_key`)) BEGIN
  UPDATE `aged_leads` SET `phone_key` = (SELECT CASE WHEN n GLOB '[2-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]' THEN CAST(n AS INTEGER) END
    FROM (SELECT CASE WHEN length(d) = 11 AND substr(d, 1, 1) = '1' THEN substr(d, 2) ELSE d END AS n
          FROM (SELECT replace(replace(replace(replace(replace(replace(NEW.`phone`, ' ', ''), '(', ''), ')', ''), '-', ''), '.', ''), '+', '') AS d)))
  WHERE rowid = NEW.rowid AND `phone_key` IS NULL;
  UPDATE `aged_leads` SET `suppressed_at` = CAST(unixepoch('subsec') * 1000 AS INTEGER)
  WHERE rowid = NEW.rowid AND `sold_at` IS NULL AND `suppressed_at` IS NULL
    AND (`phone_key` IS NULL OR EXISTS (SELECT 1 FROM `suppression_numbers` n JOIN `suppression_lists` l ON l.`id` = n.`list_id`
      WHERE n.`number` = `aged_leads`.`phone_key` AND l.`owner_user_id` IS NULL AND l.`status` = 'active'));
  INSERT OR IGNORE INTO `buyer_scrubbed_leads` (`user_id`, `lead_id`)
  SELECT l.`owner_user_id`, a.`id` FROM `aged_leads` a
    JOIN `suppression_numbers` n ON n.`number` = a.`phone_key` JOIN `suppression_lists` l ON l.`id` = n.`list_id`
  WHERE a.rowid = NEW.rowid AND a.`sold_at` IS NULL AND l.`owner_user_id` IS NOT NULL AND l.`status` = 'active';
END;
--> statement-breakpoint
ALTER TABLE `import_batches` ADD `suppressed` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `imports` ADD `rows_suppressed` integer DEFAULT 0 NOT NULL;
