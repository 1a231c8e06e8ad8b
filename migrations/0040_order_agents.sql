CREATE TABLE `order_agents` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`name` text NOT NULL,
	`transfer_phone` text NOT NULL,
	`states` text NOT NULL,
	`time_zone` text NOT NULL,
	`days` text NOT NULL,
	`hours_start_minute` integer NOT NULL,
	`hours_end_minute` integer NOT NULL,
	`taking_calls` integer DEFAULT true NOT NULL,
	`removed_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `order_agents_order_idx` ON `order_agents` (`order_id`,`removed_at`);--> statement-breakpoint
ALTER TABLE `transfers` ADD `agent_id` text REFERENCES order_agents(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `transfers_agent_routed_idx` ON `transfers` (`agent_id`,`routed_at`);