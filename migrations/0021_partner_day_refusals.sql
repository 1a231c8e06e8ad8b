CREATE TABLE `partner_day_refusals` (
	`partner_id` text NOT NULL,
	`day` text NOT NULL,
	`refused` integer DEFAULT 0 NOT NULL,
	`suppressed` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`partner_id`, `day`),
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`id`) ON UPDATE no action ON DELETE cascade
);
