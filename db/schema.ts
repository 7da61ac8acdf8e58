/**
 * Loam's own state: the upstream cache and the rate-limit counters. (The snapshot is a separate,
 * read-only database named after SSURGO and Lab Data Mart tables; see src/snapshot.)
 */
import { sqliteTable, text, integer, primaryKey, index } from "drizzle-orm/sqlite-core";

/** One upstream answer, keyed by provider and the normalized logical query. Failures are never stored. */
export const cacheEntries = sqliteTable(
  "cache_entries",
  {
    key: text("key").primaryKey(),
    provider: text("provider").notNull(),
    /** The exact upstream JSON (SDA wire shape), as received. */
    payload: text("payload").notNull(),
    /** When the upstream answered (ms since epoch). */
    storedAt: integer("stored_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    bytes: integer("bytes").notNull(),
  },
  // Covering (stored_at, bytes): the byte total and the oldest-first eviction read the index, never the payload pages.
  (table) => [index("cache_entries_stored_at_bytes").on(table.storedAt, table.bytes)],
);

/** Requests per client per one-minute window (fixed windows, docs/decisions.md#rate-limit). */
export const rateCounters = sqliteTable(
  "rate_counters",
  {
    client: text("client").notNull(),
    /** Start of the window, whole seconds since epoch, a multiple of 60. */
    windowStart: integer("window_start").notNull(),
    count: integer("count").notNull(),
  },
  (table) => [primaryKey({ columns: [table.client, table.windowStart] }), index("rate_counters_window").on(table.windowStart)],
);
