-- A buyer's private list no longer changes what that buyer sees before payment (docs/decisions/0049): it is
-- read when the order is paid, one seek per lead into suppression_numbers, so the scrubbed-leads table and
-- the insert trigger's part that filled it go. The trigger keeps the key and the shared verdict.
DROP TRIGGER IF EXISTS `aged_leads_suppression_on_insert`;
--> statement-breakpoint
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
END;
--> statement-breakpoint
DROP TABLE `buyer_scrubbed_leads`;