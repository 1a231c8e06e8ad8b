-- Issue 15, item 9: routing reads a handful of candidate orders through one index instead of every open
-- order of a state. `order_delivery_states` keeps, beside each (state, order), whether the order is open
-- for routing (ready, not paused, paid, transfers left) and when it was paid, maintained by triggers on
-- every table they come from, so no writer can forget them.
ALTER TABLE `order_delivery_states` ADD `open` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `order_delivery_states` ADD `paid_at` integer;
--> statement-breakpoint
UPDATE `order_delivery_states` SET
  `open` = coalesce((SELECT d.setup_status = 'ready' AND d.paused = 0 AND d.transfers_billable < d.transfers_total AND o.status = 'paid'
    FROM order_delivery d JOIN orders o ON o.id = d.order_id WHERE d.order_id = order_delivery_states.order_id), 0),
  `paid_at` = (SELECT o.paid_at FROM orders o WHERE o.id = order_delivery_states.order_id);
--> statement-breakpoint
CREATE INDEX `order_delivery_states_routing_idx` ON `order_delivery_states` (`state`,`open`,`paid_at`,`order_id`);
--> statement-breakpoint
CREATE TRIGGER `order_delivery_states_open_on_insert` AFTER INSERT ON `order_delivery_states` BEGIN
  UPDATE order_delivery_states SET
    open = coalesce((SELECT d.setup_status = 'ready' AND d.paused = 0 AND d.transfers_billable < d.transfers_total AND o.status = 'paid'
      FROM order_delivery d JOIN orders o ON o.id = d.order_id WHERE d.order_id = NEW.order_id), 0),
    paid_at = (SELECT o.paid_at FROM orders o WHERE o.id = NEW.order_id)
  WHERE state = NEW.state AND order_id = NEW.order_id;
END;
--> statement-breakpoint
CREATE TRIGGER `order_delivery_states_open_on_delivery` AFTER UPDATE OF `setup_status`, `paused`, `transfers_billable`, `transfers_total` ON `order_delivery` BEGIN
  UPDATE order_delivery_states SET
    open = coalesce((SELECT NEW.setup_status = 'ready' AND NEW.paused = 0 AND NEW.transfers_billable < NEW.transfers_total AND o.status = 'paid'
      FROM orders o WHERE o.id = NEW.order_id), 0)
  WHERE order_id = NEW.order_id;
END;
--> statement-breakpoint
CREATE TRIGGER `order_delivery_states_open_on_order` AFTER UPDATE OF `status`, `paid_at` ON `orders` BEGIN
  UPDATE order_delivery_states SET
    open = coalesce((SELECT d.setup_status = 'ready' AND d.paused = 0 AND d.transfers_billable < d.transfers_total AND NEW.status = 'paid'
      FROM order_delivery d WHERE d.order_id = NEW.id), 0),
    paid_at = NEW.paid_at
  WHERE order_id = NEW.id;
END;
--> statement-breakpoint
-- The partner's calls per local day, counted as transfers are inserted (the daily call cap reads one row).
CREATE TABLE `partner_day_calls` (
	`partner_id` text NOT NULL,
	`day` text NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`partner_id`, `day`),
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `partner_day_calls` (`partner_id`, `day`, `calls`)
  SELECT `partner_id`, `partner_local_day`, count(*) FROM `transfers` GROUP BY `partner_id`, `partner_local_day`;
--> statement-breakpoint
CREATE TRIGGER `partner_day_calls_on_insert` AFTER INSERT ON `transfers` BEGIN
  INSERT INTO partner_day_calls (partner_id, day, calls) VALUES (NEW.partner_id, NEW.partner_local_day, 1)
    ON CONFLICT (partner_id, day) DO UPDATE SET calls = calls + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `partner_day_calls_on_delete` AFTER DELETE ON `transfers` BEGIN
  UPDATE partner_day_calls SET calls = calls - 1 WHERE partner_id = OLD.partner_id AND day = OLD.partner_local_day;
END;
