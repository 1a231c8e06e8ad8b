-- Issue 11/13: the location filter matches a stored area code, and the marketplace stays fast at a million leads.
ALTER TABLE `aged_leads` ADD `area_code` text;--> statement-breakpoint
-- Existing rows: the phone's digits (common separators removed), the national number (a leading 1 of 11 digits dropped), its first three digits.
UPDATE `aged_leads` SET `area_code` = (
  SELECT CASE WHEN n GLOB '[0-9][0-9][0-9]*' THEN substr(n, 1, 3) ELSE '' END
  FROM (SELECT CASE WHEN length(d) = 11 AND substr(d, 1, 1) = '1' THEN substr(d, 2) ELSE d END AS n
        FROM (SELECT replace(replace(replace(replace(replace(replace(`phone`, ' ', ''), '(', ''), ')', ''), '-', ''), '.', ''), '+', '') AS d))
);--> statement-breakpoint
DROP INDEX IF EXISTS `aged_leads_available_idx`;--> statement-breakpoint
DROP INDEX IF EXISTS `aged_leads_state_idx`;--> statement-breakpoint
DROP INDEX IF EXISTS `aged_leads_sold_to_idx`;--> statement-breakpoint
-- Unsold leads newest first, with what the list filters on (availability, state, area code): the unfiltered list reads only this index.
CREATE INDEX `aged_leads_listing_idx` ON `aged_leads` (`created_at` DESC, `id`, `reserved_until`, `state`, `area_code`) WHERE `sold_at` IS NULL;--> statement-breakpoint
CREATE INDEX `aged_leads_state_listing_idx` ON `aged_leads` (`state`, `created_at` DESC, `id`, `reserved_until`) WHERE `sold_at` IS NULL;--> statement-breakpoint
CREATE INDEX `aged_leads_area_listing_idx` ON `aged_leads` (`area_code`, `created_at` DESC, `id`, `reserved_until`) WHERE `sold_at` IS NULL;--> statement-breakpoint
-- Reservations of unsold leads by expiry: the running ones are subtracted from the counts below.
CREATE INDEX `aged_leads_reservations_idx` ON `aged_leads` (`reserved_until`, `state`, `area_code`) WHERE `sold_at` IS NULL AND `reserved_until` IS NOT NULL;--> statement-breakpoint
CREATE INDEX `aged_leads_sold_to_idx` ON `aged_leads` (`sold_to_user_id`, `sold_at` DESC, `id`);--> statement-breakpoint
-- Unsold leads per state and area code, kept by the triggers below in the same transaction as every write.
CREATE TABLE `aged_lead_counts` (
	`state` text NOT NULL,
	`area_code` text NOT NULL,
	`unsold` integer NOT NULL,
	PRIMARY KEY(`state`, `area_code`)
) WITHOUT ROWID;--> statement-breakpoint
INSERT INTO `aged_lead_counts` (`state`, `area_code`, `unsold`)
SELECT `state`, coalesce(`area_code`, ''), count(*) FROM `aged_leads` WHERE `sold_at` IS NULL GROUP BY 1, 2;--> statement-breakpoint
-- An insert path that does not fill area_code still gets it (same rule as the migration above).
CREATE TRIGGER `aged_leads_fill_area_code` AFTER INSERT ON `aged_leads` WHEN NEW.`area_code` IS NULL BEGIN
  UPDATE `aged_leads` SET `area_code` = (
    SELECT CASE WHEN n GLOB '[0-9][0-9][0-9]*' THEN substr(n, 1, 3) ELSE '' END
    FROM (SELECT CASE WHEN length(d) = 11 AND substr(d, 1, 1) = '1' THEN substr(d, 2) ELSE d END AS n
          FROM (SELECT replace(replace(replace(replace(replace(replace(NEW.`phone`, ' ', ''), '(', ''), ')', ''), '-', ''), '.', ''), '+', '') AS d))
  ) WHERE rowid = NEW.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `aged_lead_counts_insert` AFTER INSERT ON `aged_leads` WHEN NEW.`sold_at` IS NULL BEGIN
  INSERT INTO `aged_lead_counts` (`state`, `area_code`, `unsold`) VALUES (NEW.`state`, coalesce(NEW.`area_code`, ''), 1)
  ON CONFLICT (`state`, `area_code`) DO UPDATE SET `unsold` = `unsold` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `aged_lead_counts_delete` AFTER DELETE ON `aged_leads` WHEN OLD.`sold_at` IS NULL BEGIN
  UPDATE `aged_lead_counts` SET `unsold` = `unsold` - 1 WHERE `state` = OLD.`state` AND `area_code` = coalesce(OLD.`area_code`, '');
END;--> statement-breakpoint
CREATE TRIGGER `aged_lead_counts_update` AFTER UPDATE OF `sold_at`, `state`, `area_code` ON `aged_leads`
WHEN (OLD.`sold_at` IS NULL) <> (NEW.`sold_at` IS NULL) OR OLD.`state` IS NOT NEW.`state` OR OLD.`area_code` IS NOT NEW.`area_code` BEGIN
  UPDATE `aged_lead_counts` SET `unsold` = `unsold` - 1
  WHERE OLD.`sold_at` IS NULL AND `state` = OLD.`state` AND `area_code` = coalesce(OLD.`area_code`, '');
  INSERT INTO `aged_lead_counts` (`state`, `area_code`, `unsold`)
  SELECT NEW.`state`, coalesce(NEW.`area_code`, ''), 1 WHERE NEW.`sold_at` IS NULL
  ON CONFLICT (`state`, `area_code`) DO UPDATE SET `unsold` = `unsold` + 1;
END;
