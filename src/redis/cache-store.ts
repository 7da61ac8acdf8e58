/**
 * Cache entries in Redis, for several instances sharing one cache: the same facts a cache row holds
 * in LOAM_DB (the payload as the upstream sent it, when it was stored, when it stops being fresh, the
 * provider), one string per entry so a read and a write are one command each.
 *
 * The Redis key outlives freshness by `staleSeconds`, so an expired entry can still be served when
 * the upstream fails (stale-if-error); freshness is the caller's decision, from `expiresAt`.
 * Redis down or slow: a read is a miss and a write is skipped (never an error for the request).
 */
import type { CacheStore, StoredEntry } from "../upstream/cache";
import { CorruptEntryError } from "../upstream/cache";
import type { LoamRedis } from "./client";
import { createRedisSingleFlight } from "./single-flight";

export type { StoredEntry };

export interface RedisCacheStoreOptions {
  prefix?: string;
  /** How long an expired entry is kept for stale-if-error (default: one day). */
  staleSeconds?: number;
  now?: () => number;
}

/**
 * The largest entry kept in Redis (docs/decisions.md#redis-values). A larger answer (a 32 MB polygon
 * page) would hold the shared connection for longer than REDIS_TIMEOUT_MS and everyone's rate-limit
 * command behind it: it is kept in this instance's memory only.
 */
export const REDIS_MAX_VALUE_BYTES = 4 * 1024 * 1024;
/** Extra time a value command gets over REDIS_TIMEOUT_MS: moving REDIS_MAX_VALUE_BYTES over a slow link. */
const VALUE_EXTRA_MS = 1000;

/** What binds an entry to its key and its payload to its header: a hash of both (docs/decisions.md#cache-entries). */
function binding(key: string, payload: string): string {
  return Bun.hash(`${key}\u0000${payload}`).toString(36);
}

/** Header line before the payload: format, stored_at, expires_at, provider, binding (tab-separated). */
function encode(key: string, entry: StoredEntry): string {
  return `v2\t${entry.storedAt}\t${entry.expiresAt}\t${entry.provider}\t${binding(key, entry.payload)}\n${entry.payload}`;
}

/** The entry stored under `key`; CorruptEntryError when the text is not one, or is another key's (copied). */
function decode(key: string, text: string): StoredEntry {
  const newline = text.indexOf("\n");
  if (newline === -1) throw new CorruptEntryError("no header line");
  const [format, storedAt, expiresAt, provider, bound] = text.slice(0, newline).split("\t");
  if (format !== "v2") throw new CorruptEntryError("an unknown header format");
  const entry = { storedAt: Number(storedAt), expiresAt: Number(expiresAt), provider: provider ?? "", payload: text.slice(newline + 1) };
  if (!Number.isFinite(entry.storedAt) || !Number.isFinite(entry.expiresAt)) throw new CorruptEntryError("a header without times");
  if (bound !== binding(key, entry.payload)) throw new CorruptEntryError("a payload that is not the one stored under this key");
  return entry;
}

export function createRedisCacheStore(redis: LoamRedis, options: RedisCacheStoreOptions = {}) {
  const prefix = options.prefix ?? "loam:cache:";
  const staleMs = (options.staleSeconds ?? 86_400) * 1000;
  const now = options.now ?? Date.now;
  // Cache keys are a provider and a normalized query of any length: Redis keys are their hash.
  const keyOf = (key: string) => prefix + new Bun.CryptoHasher("sha256").update(key).digest("hex");

  return {
    /**
     * The entry, fresh or not (see `expiresAt`); null when absent or Redis is unavailable. An entry that
     * does not decode, or is bound to another key, throws CorruptEntryError (the cache deletes it).
     */
    async get(key: string): Promise<StoredEntry | null> {
      let text: unknown;
      try {
        text = await redis.send("GET", [keyOf(key)], { bulk: true, extraMs: VALUE_EXTRA_MS });
      } catch {
        // Redis unavailable, or an error reply (another type under the key): a miss either way.
        return null;
      }
      return typeof text === "string" ? decode(key, text) : null;
    },
    /** Store an entry; false when it was not stored (Redis unavailable, or already past its retention). */
    async set(key: string, entry: StoredEntry): Promise<boolean> {
      const keepMs = entry.expiresAt - now() + staleMs;
      if (keepMs <= 0) return false;
      try {
        await redis.send("SET", [keyOf(key), encode(key, entry), "PX", String(Math.ceil(keepMs))], { bulk: true, extraMs: VALUE_EXTRA_MS });
        return true;
      } catch {
        return false;
      }
    },
    async delete(key: string): Promise<void> {
      try {
        await redis.send("DEL", [keyOf(key)], { bulk: true });
      } catch {
        // an entry that could not be deleted expires on its own
      }
    },
  };
}
export type RedisCacheStore = ReturnType<typeof createRedisCacheStore>;

export interface SharedStoreOptions extends RedisCacheStoreOptions {
  /** Lifetime of the single-flight lock: longer than the slowest upstream call. */
  lockMs: number;
  /** How long an instance waits for another's upstream call before asking the upstream itself. */
  waitMs: number;
}

/**
 * The cache's store for several instances (REDIS_URL): entries in Redis, and one upstream call per
 * question across instances (the single-flight lock). Nothing is evicted by Loam: entries expire by
 * themselves (freshness + `staleSeconds`), and Redis's own maxmemory policy bounds the rest.
 */
export function createSharedCacheStore(redis: LoamRedis, options: SharedStoreOptions): CacheStore {
  const entries = createRedisCacheStore(redis, options);
  const flight = createRedisSingleFlight(redis, { lockMs: options.lockMs, waitMs: options.waitMs });
  return {
    kind: "redis",
    maxEntryBytes: REDIS_MAX_VALUE_BYTES,
    read: async (key) => (await entries.get(key)) ?? undefined,
    write: async (key, entry) => ({ stored: await entries.set(key, entry), evicted: [] }),
    remove: (key) => entries.delete(key),
    exclusive: async (key, steps) => (await flight.run(key, steps)).value,
  };
}

/** Lock and wait times from the configuration: an upstream call lasts at most UPSTREAM_TIMEOUT_MS. */
export function sharedCacheTimes(config: { upstreamTimeoutMs: number }): { lockMs: number; waitMs: number } {
  const lockMs = config.upstreamTimeoutMs + 5_000;
  return { lockMs, waitMs: lockMs };
}
