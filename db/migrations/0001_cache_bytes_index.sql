DROP INDEX `cache_entries_stored_at`;--> statement-breakpoint
CREATE INDEX `cache_entries_stored_at_bytes` ON `cache_entries` (`stored_at`,`bytes`);