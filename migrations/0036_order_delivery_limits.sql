-- An order's own delivery limits (docs/decisions/0068): a closure (first and last local day, inclusive),
-- a cap per 60 minutes and a cap on calls at once. Hand-written ADD COLUMNs: nullable columns need no
-- table rebuild. Routing's hourly count reads transfers through transfers_order_routed_idx (order_id, routed_at).
ALTER TABLE `order_delivery` ADD `closed_from` text;--> statement-breakpoint
ALTER TABLE `order_delivery` ADD `closed_until` text;--> statement-breakpoint
ALTER TABLE `order_delivery` ADD `per_hour_cap` integer;--> statement-breakpoint
ALTER TABLE `order_delivery` ADD `max_concurrent` integer;
