-- Issue 16: Lead Tracker, returns and the buyer's balance.
-- One row per return a buyer asked for; an item (a transfer or an aged lead) can be returned once.
CREATE TABLE `returns` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`buyer_user_id` text NOT NULL,
	`transfer_id` text,
	`aged_lead_id` text,
	`order_id` text NOT NULL,
	`reason` text NOT NULL,
	`reason_text` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`admin_note` text,
	`decided_by` text,
	`decided_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`buyer_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`transfer_id`) REFERENCES `transfers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`aged_lead_id`) REFERENCES `aged_leads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CHECK ((`kind` = 'transfer') = (`transfer_id` IS NOT NULL) AND (`kind` = 'aged_lead') = (`aged_lead_id` IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `returns_transfer_unique` ON `returns` (`transfer_id`) WHERE `transfer_id` IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX `returns_aged_lead_unique` ON `returns` (`aged_lead_id`) WHERE `aged_lead_id` IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `returns_buyer_created_idx` ON `returns` (`buyer_user_id`,`created_at`);
--> statement-breakpoint
CREATE INDEX `returns_status_created_idx` ON `returns` (`status`,`created_at`);
--> statement-breakpoint
-- Every change of a buyer's balance (+ credit, − debit); the balance is the sum, never a stored total.
-- `order_id` has no foreign key: a checkout's debit is written before its order row, so the card amount is known.
CREATE TABLE `balance_ledger` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`reason` text NOT NULL,
	`return_id` text,
	`order_id` text,
	`created_by` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`return_id`) REFERENCES `returns`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `balance_ledger_user_idx` ON `balance_ledger` (`user_id`,`created_at`);
--> statement-breakpoint
-- A return is credited once; an order's balance is applied once and given back once.
CREATE UNIQUE INDEX `balance_ledger_return_unique` ON `balance_ledger` (`return_id`) WHERE `return_id` IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX `balance_ledger_order_unique` ON `balance_ledger` (`order_id`,`reason`) WHERE `order_id` IS NOT NULL;
--> statement-breakpoint
-- The part of an aged-lead order's total its buyer's balance paid (the card pays the rest).
ALTER TABLE `orders` ADD `balance_applied_cents` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Set when a return of the item is approved: the transfer leaves the partner's payout, the lead the buyer's My Leads.
ALTER TABLE `transfers` ADD `returned_at` integer;
--> statement-breakpoint
ALTER TABLE `aged_leads` ADD `returned_at` integer;
--> statement-breakpoint
-- The Lead Tracker: a buyer's transfers newest first.
CREATE INDEX `transfers_buyer_routed_idx` ON `transfers` (`buyer_user_id`,`routed_at`);
--> statement-breakpoint
-- The daily delivery summary reads a few recent local days.
CREATE INDEX `transfers_buyer_day_idx` ON `transfers` (`buyer_local_day`,`buyer_user_id`);
--> statement-breakpoint
-- The daily delivery summary is e-mailed once per buyer and day.
CREATE TABLE `delivery_summaries` (
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`sent_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`user_id`, `day`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
