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
import type { LoamRedis } from "./client";
import { createRedisSingleFlight } from "./single-flight";

export type { StoredEntry };

export interface RedisCacheStoreOptions {
  prefix?: string;
  /** How long an expired entry is kept for stale-if-error (default: one day). */
  staleSeconds?: number;
  now?: () => number;
}

/** Header line before the payload: stored_at, expires_at, provider (tab-separated). */
function encode(entry: StoredEntry): string {
  return `${entry.storedAt}\t${entry.expiresAt}\t${entry.provider}\n${entry.payload}`;
}

function decode(text: string): StoredEntry | null {
  const newline = text.indexOf("\n");
  if (newline === -1) return null;
  const [storedAt, expiresAt, provider] = text.slice(0, newline).split("\t");
  const entry = { storedAt: Number(storedAt), expiresAt: Number(expiresAt), provider: provider ?? "", payload: text.slice(newline + 1) };
  return Number.isFinite(entry.storedAt) && Number.isFinite(entry.expiresAt) ? entry : null;
}

export function createRedisCacheStore(redis: LoamRedis, options: RedisCacheStoreOptions = {}) {
  const prefix = options.prefix ?? "loam:cache:";
  const staleMs = (options.staleSeconds ?? 86_400) * 1000;
  const now = options.now ?? Date.now;
  // Cache keys are a provider and a normalized query of any length: Redis keys are their hash.
  const keyOf = (key: string) => prefix + new Bun.CryptoHasher("sha256").update(key).digest("hex");

  return {
    /** The entry, fresh or not (see `expiresAt`); null when absent, unreadable, or Redis is unavailable. */
    async get(key: string): Promise<StoredEntry | null> {
      try {
        const text = await redis.send("GET", [keyOf(key)]);
        return typeof text === "string" ? decode(text) : null;
      } catch {
        // Redis unavailable, or an error reply (another type under the key): a miss either way.
        return null;
      }
    },
    /** Store an entry; false when it was not stored (Redis unavailable, or already past its retention). */
    async set(key: string, entry: StoredEntry): Promise<boolean> {
      const keepMs = entry.expiresAt - now() + staleMs;
      if (keepMs <= 0) return false;
      try {
        await redis.send("SET", [keyOf(key), encode(entry), "PX", String(Math.ceil(keepMs))]);
        return true;
      } catch {
        return false;
      }
    },
    async delete(key: string): Promise<void> {
      try {
        await redis.send("DEL", [keyOf(key)]);
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
    read: async (key) => (await entries.get(key)) ?? undefined,
    write: async (key, entry) => ({ stored: await entries.set(key, entry), evicted: [] }),
    exclusive: async (key, steps) => (await flight.run(key, steps)).value,
  };
}

/** Lock and wait times from the configuration: an upstream call lasts at most UPSTREAM_TIMEOUT_MS. */
export function sharedCacheTimes(config: { upstreamTimeoutMs: number }): { lockMs: number; waitMs: number } {
  const lockMs = config.upstreamTimeoutMs + 5_000;
  return { lockMs, waitMs: lockMs };
}
