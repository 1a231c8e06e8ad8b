ALTER TABLE `aged_leads` ADD `certificate_check` text;--> statement-breakpoint
ALTER TABLE `aged_leads` ADD `certificate_checked_at` integer;--> statement-breakpoint
-- Leads whose only certificates are the upload template's samples or all zeros were counted as certified:
-- they are not (docs/decisions/0054). An upload that sells only leads with a certificate now withholds them.
UPDATE `aged_leads` SET `certified` = 0,
  `withheld` = CASE WHEN coalesce((SELECT `certificate_required` FROM `imports` WHERE `imports`.`id` = `aged_leads`.`import_id`), 0) = 1
    THEN 1 ELSE `withheld` END
WHERE `certified` = 1
  AND (`trusted_form_url` IS NULL OR lower(`trusted_form_url`) IN (
    'https://cert.trustedform.com/0123456789abcdef0123456789abcdef01234567',
    'https://cert.trustedform.com/0000000000000000000000000000000000000000'))
  AND (`jornaya_lead_id` IS NULL OR upper(`jornaya_lead_id`) IN (
    '6D3E8B1A-4F2C-4B7D-9A1E-3C5F7B9D2E40',
    '00000000-0000-0000-0000-000000000000'));
