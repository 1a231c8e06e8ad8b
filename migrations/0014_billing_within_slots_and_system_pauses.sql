-- Issue 21, items 1-2 and 9 (decisions 0026 and 0027).
--
-- 1. Repair what the old event handler could bill: a `completed` reported after its slot was released
--    (more than 60 s after the ping without an accepted `connected`, or more than 4 h after connecting)
--    becomes `expired` and unbilled; any billable transfers an order still has beyond what it bought plus
--    its approved returns (latest first) become not charged. An order that had completed itself on such
--    deliveries is open again. Then the order's counters are recounted from its transfers.
UPDATE `transfers` SET `status` = 'expired', `billable` = 0
WHERE `status` = 'completed' AND `billable` = 1
  AND (SELECT ce.`received_at` FROM `transfer_events` ce WHERE ce.`transfer_id` = `transfers`.`id` AND ce.`type` = 'completed')
    >= coalesce(
      (SELECT cn.`received_at` + 14400000 FROM `transfer_events` cn
        WHERE cn.`transfer_id` = `transfers`.`id` AND cn.`type` = 'connected' AND cn.`received_at` < `transfers`.`routed_at` + 60000),
      `transfers`.`routed_at` + 60000);
--> statement-breakpoint
UPDATE `transfers` SET `billable` = 0
WHERE `id` IN (
  SELECT `id` FROM (
    SELECT t.`id`, row_number() OVER (PARTITION BY t.`order_id` ORDER BY t.`ended_at`, t.`id`) AS n,
      d.`transfers_total` + (SELECT count(*) FROM `returns` r
        WHERE r.`order_id` = t.`order_id` AND r.`kind` = 'transfer' AND r.`status` = 'approved') AS allowed
    FROM `transfers` t JOIN `order_delivery` d ON d.`order_id` = t.`order_id`
    WHERE t.`billable` = 1
  ) WHERE n > allowed
);
--> statement-breakpoint
UPDATE `orders` SET `status` = 'paid'
WHERE `status` = 'completed' AND EXISTS (
  SELECT 1 FROM `order_delivery` d WHERE d.`order_id` = `orders`.`id` AND d.`transfers_billable` >= d.`transfers_total`
    AND (SELECT count(*) FROM `transfers` t WHERE t.`order_id` = d.`order_id` AND t.`billable` = 1 AND t.`returned_at` IS NULL)
      < d.`transfers_total`
);
--> statement-breakpoint
UPDATE `order_delivery` SET
  `transfers_billable` = (SELECT count(*) FROM `transfers` t
    WHERE t.`order_id` = `order_delivery`.`order_id` AND t.`billable` = 1 AND t.`returned_at` IS NULL),
  `transfers_not_charged` = (SELECT count(*) FROM `transfers` t
    WHERE t.`order_id` = `order_delivery`.`order_id` AND t.`status` = 'completed' AND t.`billable` = 0);
--> statement-breakpoint
-- 2. The database refuses an order with more billable transfers than it bought (approved returns are
--    taken off `transfers_billable`, so this is "billable <= total + approved returns"), whoever writes.
--    SQLite cannot add a CHECK to an existing table, and rebuilding `order_delivery` would cascade-delete
--    its per-state rows, so the check is a pair of triggers.
CREATE TRIGGER `order_delivery_billable_within_total_on_insert` BEFORE INSERT ON `order_delivery`
WHEN NEW.`transfers_billable` < 0 OR NEW.`transfers_billable` > NEW.`transfers_total` BEGIN
  SELECT RAISE(ABORT, 'order_delivery.transfers_billable must be between 0 and transfers_total');
END;
--> statement-breakpoint
CREATE TRIGGER `order_delivery_billable_within_total_on_update` BEFORE UPDATE OF `transfers_billable`, `transfers_total` ON `order_delivery`
WHEN NEW.`transfers_billable` < 0 OR NEW.`transfers_billable` > NEW.`transfers_total` BEGIN
  SELECT RAISE(ABORT, 'order_delivery.transfers_billable must be between 0 and transfers_total');
END;
--> statement-breakpoint
-- 3. Who paused an order ('buyer' or 'no_answer', the system), and whether only an admin may lift it.
ALTER TABLE `order_delivery` ADD `pause_kind` text CHECK (`pause_kind` IN ('buyer', 'no_answer'));
--> statement-breakpoint
ALTER TABLE `order_delivery` ADD `pause_needs_admin` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE `order_delivery` SET `pause_kind` = CASE WHEN `paused_reason` = 'Paused by the buyer' THEN 'buyer' ELSE 'no_answer' END
WHERE `paused` = 1;
--> statement-breakpoint
-- Every system pause and how it was lifted: the third within 24 hours needs an admin.
CREATE TABLE `system_pauses` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`paused_at` integer NOT NULL,
	`needs_admin` integer DEFAULT 0 NOT NULL,
	`lifted_at` integer,
	`lifted_by` text,
	`lifted_how` text CHECK (`lifted_how` IN ('number_confirmed', 'number_changed', 'admin')),
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lifted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `system_pauses_order_idx` ON `system_pauses` (`order_id`,`paused_at`);
--> statement-breakpoint
INSERT INTO `system_pauses` (`id`, `order_id`, `paused_at`)
  SELECT lower(hex(randomblob(16))), `order_id`, coalesce(`paused_at`, unixepoch() * 1000) FROM `order_delivery`
  WHERE `pause_kind` = 'no_answer';
