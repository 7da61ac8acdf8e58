CREATE TABLE `cache_entries` (
	`key` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`payload` text NOT NULL,
	`stored_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`bytes` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `cache_entries_stored_at` ON `cache_entries` (`stored_at`);--> statement-breakpoint
CREATE TABLE `rate_counters` (
	`client` text NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`client`, `window_start`)
);
--> statement-breakpoint
CREATE INDEX `rate_counters_window` ON `rate_counters` (`window_start`);