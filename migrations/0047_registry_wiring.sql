ALTER TABLE `aged_leads` ADD `registry_listed_at` integer;--> statement-breakpoint
ALTER TABLE `callback_opportunities` ADD `registry_listed_at` integer;--> statement-breakpoint
ALTER TABLE `suppression_lists` ADD `registry_move` text;--> statement-breakpoint
-- The national and state lists kept as D1 rows move into the registry store (docs/decisions/0084): marked
-- here; the cron's move task stores them area code by area code, then deletes their rows. A state list
-- with no state cannot name its registry copy and stays in D1.
UPDATE `suppression_lists` SET `registry_move` = 'pending'
WHERE `owner_user_id` IS NULL AND `status` = 'active'
  AND (`kind` = 'national_dnc' OR (`kind` = 'state_dnc' AND `state` IS NOT NULL));
