-- A million-row import (issue 13): My Leads reads aged_leads_sold_to_idx only with `sold_to_user_id = ?`,
-- so leads nobody bought need no entry in it; unsold rows no longer land in the middle of this index.
DROP INDEX IF EXISTS `aged_leads_sold_to_idx`;--> statement-breakpoint
CREATE INDEX `aged_leads_sold_to_idx` ON `aged_leads` (`sold_to_user_id`, `sold_at` DESC, `id`) WHERE `sold_to_user_id` IS NOT NULL;
