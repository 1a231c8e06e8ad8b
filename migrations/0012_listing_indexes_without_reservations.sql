-- Reserving 200 leads rewrote 600 entries of the three listing indexes, because each carried
-- `reserved_until` (at a million leads that was most of the reservation's time). The listing now checks
-- running reservations against their own small index (aged_leads_reservations_idx) instead.
DROP INDEX IF EXISTS `aged_leads_listing_idx`;--> statement-breakpoint
CREATE INDEX `aged_leads_listing_idx` ON `aged_leads` (`created_at` DESC, `id`, `state`, `area_code`) WHERE `sold_at` IS NULL;--> statement-breakpoint
DROP INDEX IF EXISTS `aged_leads_state_listing_idx`;--> statement-breakpoint
CREATE INDEX `aged_leads_state_listing_idx` ON `aged_leads` (`state`, `created_at` DESC, `id`) WHERE `sold_at` IS NULL;--> statement-breakpoint
DROP INDEX IF EXISTS `aged_leads_area_listing_idx`;--> statement-breakpoint
CREATE INDEX `aged_leads_area_listing_idx` ON `aged_leads` (`area_code`, `created_at` DESC, `id`) WHERE `sold_at` IS NULL;
