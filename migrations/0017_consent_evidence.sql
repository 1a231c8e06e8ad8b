-- Issue 24 items 1-3 (docs/decisions/0041): consent evidence on every aged lead, "with certificate" in the
-- marketplace, uploads that sell only leads with a certificate, partners that must send a TrustedForm URL.
-- Consent evidence of an aged lead, each optional (schemas/consent.ts checks the form and every CSV row alike).
ALTER TABLE `aged_leads` ADD `opt_in_at` integer;--> statement-breakpoint
ALTER TABLE `aged_leads` ADD `opt_in_url` text;--> statement-breakpoint
ALTER TABLE `aged_leads` ADD `consent_text` text;--> statement-breakpoint
ALTER TABLE `aged_leads` ADD `ip_address` text;--> statement-breakpoint
ALTER TABLE `aged_leads` ADD `trusted_form_url` text;--> statement-breakpoint
ALTER TABLE `aged_leads` ADD `jornaya_lead_id` text;--> statement-breakpoint
-- A TrustedForm certificate or a Jornaya LeadiD. No lead stored before this migration has either.
ALTER TABLE `aged_leads` ADD `certified` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- No certificate, and its upload sells only leads with one: stored, never listed nor sold.
ALTER TABLE `aged_leads` ADD `withheld` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `imports` ADD `rows_certified` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `imports` ADD `certificate_required` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `import_batches` ADD `certified` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `partners` ADD `require_trusted_form` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `transfers` ADD `consent_text` text;--> statement-breakpoint
ALTER TABLE `transfers` ADD `ip_address` text;--> statement-breakpoint
ALTER TABLE `transfers` ADD `jornaya_lead_id` text;--> statement-breakpoint
-- Certified leads among the unsold of each key; 0 for every existing key (no lead had a certificate).
ALTER TABLE `aged_lead_counts` ADD `certified` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The listing indexes cover leads for sale only (unsold and not withheld); the key indexes carry `certified`
-- so the certificate filter is tested inside them, and a partial index lists the certified leads newest first.
DROP INDEX IF EXISTS `aged_leads_listing_idx`;--> statement-breakpoint
CREATE INDEX `aged_leads_listing_idx` ON `aged_leads` (`created_at` DESC, `id`, `state`, `area_code`) WHERE `sold_at` IS NULL AND `withheld` = 0;--> statement-breakpoint
DROP INDEX IF EXISTS `aged_leads_state_listing_idx`;--> statement-breakpoint
CREATE INDEX `aged_leads_state_listing_idx` ON `aged_leads` (`state`, `created_at` DESC, `id`, `certified`) WHERE `sold_at` IS NULL AND `withheld` = 0;--> statement-breakpoint
DROP INDEX IF EXISTS `aged_leads_area_listing_idx`;--> statement-breakpoint
CREATE INDEX `aged_leads_area_listing_idx` ON `aged_leads` (`area_code`, `created_at` DESC, `id`, `certified`) WHERE `sold_at` IS NULL AND `withheld` = 0;--> statement-breakpoint
CREATE INDEX `aged_leads_certified_listing_idx` ON `aged_leads` (`created_at` DESC, `id`, `state`, `area_code`) WHERE `sold_at` IS NULL AND `withheld` = 0 AND `certified` = 1;--> statement-breakpoint
DROP INDEX IF EXISTS `aged_leads_reservations_idx`;--> statement-breakpoint
CREATE INDEX `aged_leads_reservations_idx` ON `aged_leads` (`reserved_until`, `state`, `area_code`, `certified`) WHERE `sold_at` IS NULL AND `withheld` = 0 AND `reserved_until` IS NOT NULL;--> statement-breakpoint
-- The import consumer counts a batch's certified leads from this index alone.
DROP INDEX IF EXISTS `aged_leads_import_idx`;--> statement-breakpoint
CREATE INDEX `aged_leads_import_idx` ON `aged_leads` (`import_id`, `import_batch`, `certified`);--> statement-breakpoint
-- The counts follow the same rule as the indexes: a lead counts while it is unsold and not withheld.
DROP TRIGGER IF EXISTS `aged_lead_counts_insert`;--> statement-breakpoint
CREATE TRIGGER `aged_lead_counts_insert` AFTER INSERT ON `aged_leads` WHEN NEW.`sold_at` IS NULL AND NEW.`withheld` = 0 BEGIN
  INSERT INTO `aged_lead_counts` (`state`, `area_code`, `unsold`, `certified`)
  VALUES (NEW.`state`, coalesce(NEW.`area_code`, ''), 1, NEW.`certified`)
  ON CONFLICT (`state`, `area_code`) DO UPDATE SET `unsold` = `unsold` + 1, `certified` = `certified` + excluded.`certified`;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `aged_lead_counts_delete`;--> statement-breakpoint
CREATE TRIGGER `aged_lead_counts_delete` AFTER DELETE ON `aged_leads` WHEN OLD.`sold_at` IS NULL AND OLD.`withheld` = 0 BEGIN
  UPDATE `aged_lead_counts` SET `unsold` = `unsold` - 1, `certified` = `certified` - OLD.`certified`
  WHERE `state` = OLD.`state` AND `area_code` = coalesce(OLD.`area_code`, '');
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `aged_lead_counts_update`;--> statement-breakpoint
CREATE TRIGGER `aged_lead_counts_update` AFTER UPDATE OF `sold_at`, `withheld`, `certified`, `state`, `area_code` ON `aged_leads`
WHEN (OLD.`sold_at` IS NULL AND OLD.`withheld` = 0) <> (NEW.`sold_at` IS NULL AND NEW.`withheld` = 0)
  OR OLD.`certified` IS NOT NEW.`certified` OR OLD.`state` IS NOT NEW.`state` OR OLD.`area_code` IS NOT NEW.`area_code` BEGIN
  UPDATE `aged_lead_counts` SET `unsold` = `unsold` - 1, `certified` = `certified` - OLD.`certified`
  WHERE OLD.`sold_at` IS NULL AND OLD.`withheld` = 0 AND `state` = OLD.`state` AND `area_code` = coalesce(OLD.`area_code`, '');
  INSERT INTO `aged_lead_counts` (`state`, `area_code`, `unsold`, `certified`)
  SELECT NEW.`state`, coalesce(NEW.`area_code`, ''), 1, NEW.`certified` WHERE NEW.`sold_at` IS NULL AND NEW.`withheld` = 0
  ON CONFLICT (`state`, `area_code`) DO UPDATE SET `unsold` = `unsold` + 1, `certified` = `certified` + excluded.`certified`;
END;
