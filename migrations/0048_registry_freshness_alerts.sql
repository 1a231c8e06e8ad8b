CREATE TABLE `registry_freshness_alerts` (
	`day` text PRIMARY KEY NOT NULL,
	`sent_at` integer NOT NULL,
	`copies` integer NOT NULL,
	`stale` integer NOT NULL
);
