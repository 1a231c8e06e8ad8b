-- Most leads are never reserved, so these columns are NULL on almost every row. With ANALYZE statistics
-- a plain index then looks useless to the planner (one key for a million rows) and releasing a buyer's
-- reservation scanned the whole table. Partial indexes hold only the reserved rows.
DROP INDEX IF EXISTS `aged_leads_reserved_user_idx`;--> statement-breakpoint
CREATE INDEX `aged_leads_reserved_user_idx` ON `aged_leads` (`reserved_by_user_id`) WHERE `reserved_by_user_id` IS NOT NULL;--> statement-breakpoint
DROP INDEX IF EXISTS `aged_leads_reserved_order_idx`;--> statement-breakpoint
CREATE INDEX `aged_leads_reserved_order_idx` ON `aged_leads` (`reserved_by_order_id`) WHERE `reserved_by_order_id` IS NOT NULL;
