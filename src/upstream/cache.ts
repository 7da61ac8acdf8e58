/**
 * The upstream cache (docs/decisions.md#cache): SQLite entries keyed by provider + source identity + logical query,
 * a lifetime, one shared upstream call for identical concurrent requests, stale-if-error, and bounds
 * in entries and in bytes that evict the oldest entries first. Only complete, decoded answers are stored; failures never.
 *
 * Entries are opaque payloads: the cache never knows what a provider's answer looks like. Each call
 * brings the decoder of its query, used when an entry is read back from SQLite.
 *
 * SQLite is the store of record; in front of it a small in-process LRU keeps the decoded answers of
 * recently used entries, so a hit neither reads the row nor decodes it again. It is written through
 * on every store, so it never holds an answer that was not stored, and an entry past its lifetime is
 * never served from it.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { LoamDatabase } from "../../db/client";
import { cacheEntries } from "../../db/schema";
import { LoamError } from "../errors";
import { Lru } from "../lru";
import { Payload } from "./transport";

export interface CachedAnswer<A> {
  answer: A;
  /** The identity of the source that produced the answer (SourceDescription.identity). */
  source: string;
  /** A hash of the stored payload, made once per entry: with `source`, what names the data in entity tags. */
  digest: string;
  /** True when no upstream call was made for this request. */
  hit: boolean;
  /** When the upstream produced the answer (ms since epoch). */
  storedAt: number;
  /** True when the entry had expired and was served because the upstream failed (stale-if-error). */
  stale: boolean;
  /** The upstream failure that made a stale answer necessary. */
  staleBecause?: LoamError;
  /** Milliseconds spent waiting for the upstream (0 on a hit). */
  upstreamMs: number;
}

/** A fresh upstream answer: the payload to store and the answer decoded from it. */
export interface Fetched<A> {
  payload: Payload;
  answer: A;
}

export interface CacheOptions {
  ttlSeconds: number;
  /** Entries kept at most; the oldest are evicted first. */
  maxEntries?: number;
  /** Payload bytes (UTF-8) kept at most (CACHE_MAX_BYTES); the oldest entries are evicted first. */
  maxBytes?: number;
  /** Decoded answers kept in memory at most (entries and payload characters). */
  memoryEntries?: number;
  memoryChars?: number;
  now?: () => number;
  /**
   * A LOAM_DB read or write that failed (disk full, read-only, I/O error). The cache degrades instead
   * of failing the request (docs/decisions.md#storage-faults): a failed read is a miss, a failed
   * write is skipped. The callback logs and counts it.
   */
  onStorageError?: (operation: "read" | "write", error: unknown) => void;
}

/** The digest of a payload text (see CachedAnswer.digest). */
export function payloadDigest(text: string): string {
  return Bun.hash(text).toString(36);
}

interface Remembered {
  answer: unknown;
  digest: string;
  storedAt: number;
  expiresAt: number;
}

export function createUpstreamCache(db: LoamDatabase, options: CacheOptions) {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 10_000;
  const maxBytes = options.maxBytes ?? 268_435_456;
  const inFlight = new Map<string, Promise<CachedAnswer<unknown>>>();
  // CACHE_TTL_SECONDS=0 turns the store off (identical concurrent requests still share one call).
  const disabled = options.ttlSeconds === 0;
  const select = db.select().from(cacheEntries).where(eq(cacheEntries.key, sql.placeholder("key"))).prepare();
  const memory = new Lru<string, Remembered>(options.memoryEntries ?? 500, options.memoryChars ?? 8_000_000);
  let stores = 0;
  let hits = 0;
  let misses = 0;
  let memoryHits = 0;

  /** A fresh entry: from memory, else from SQLite (then remembered). */
  function fresh(key: string, at: number, decode: (payload: Payload) => unknown): Remembered | undefined {
    const remembered = memory.get(key);
    if (remembered && remembered.expiresAt > at) {
      memoryHits++;
      return remembered;
    }
    const entry = read(key);
    if (!entry || entry.expiresAt <= at) return undefined;
    const decoded = { answer: decode(Payload.ofText(entry.payload)), digest: payloadDigest(entry.payload), storedAt: entry.storedAt, expiresAt: entry.expiresAt };
    memory.set(key, decoded, entry.payload.length);
    return decoded;
  }

  function read(key: string) {
    try {
      return select.get({ key });
    } catch (error) {
      options.onStorageError?.("read", error);
      return undefined;
    }
  }

  function store(key: string, provider: string, fetched: Fetched<unknown>, payload: string, digest: string, storedAt: number): void {
    const answer = fetched.answer;
    const entry = { key, provider, payload, storedAt, expiresAt: storedAt + options.ttlSeconds * 1000, bytes: Buffer.byteLength(payload) };
    // An answer larger than the whole bound would evict everything and then itself: served, not stored.
    if (entry.bytes > maxBytes) return;
    try {
      write(entry);
    } catch (error) {
      // Not stored, so not remembered either: memory never holds an answer LOAM_DB does not.
      options.onStorageError?.("write", error);
      return;
    }
    // Remembered only once the row is committed.
    memory.set(key, { answer, digest, storedAt, expiresAt: entry.expiresAt }, payload.length);
    stores++;
  }

  function write(entry: typeof cacheEntries.$inferInsert): void {
    db.transaction((tx) => {
      tx.insert(cacheEntries).values(entry).onConflictDoUpdate({ target: cacheEntries.key, set: entry }).run();
      // Evicting in the same transaction keeps the bounds exact even under concurrent writers. Both
      // totals and the oldest-first order come from the (stored_at, bytes) index, never the payload pages.
      const totals = tx.select({ count: sql<number>`count(*)`, bytes: sql<number>`coalesce(sum(${cacheEntries.bytes}), 0)` }).from(cacheEntries).get();
      let count = totals?.count ?? 0;
      let bytes = totals?.bytes ?? 0;
      while (count > maxEntries || bytes > maxBytes) {
        const oldest = tx
          .select({ key: cacheEntries.key, bytes: cacheEntries.bytes })
          .from(cacheEntries)
          .orderBy(asc(cacheEntries.storedAt))
          .limit(Math.max(64, count - maxEntries))
          .all();
        if (oldest.length === 0) break;
        for (const old of oldest) {
          if (count <= maxEntries && bytes <= maxBytes) break;
          tx.delete(cacheEntries).where(eq(cacheEntries.key, old.key)).run();
          memory.delete(old.key);
          count--;
          bytes -= old.bytes;
        }
      }
    });
  }

  async function load<A>(key: string, provider: string, source: string, fetchAnswer: () => Promise<Fetched<A>>, decode: (payload: Payload) => A): Promise<CachedAnswer<A>> {
    const started = now();
    try {
      const fetched = await fetchAnswer();
      const storedAt = now();
      const payload = fetched.payload.text();
      const digest = payloadDigest(payload);
      if (!disabled) store(key, provider, fetched, payload, digest, storedAt);
      misses++;
      return { answer: fetched.answer, source, digest, hit: false, storedAt, stale: false, upstreamMs: storedAt - started };
    } catch (error) {
      const stale = read(key);
      if (stale && error instanceof LoamError && error.retryable) {
        hits++;
        return { answer: decode(Payload.ofText(stale.payload)), source, digest: payloadDigest(stale.payload), hit: true, storedAt: stale.storedAt, stale: true, staleBecause: error, upstreamMs: now() - started };
      }
      throw error;
    }
  }

  return {
    /**
     * The answer for `query` (a stable text naming the logical query) of `provider`: from the cache when
     * fresh, else from `fetchAnswer` (shared by concurrent callers). `decode` reads a stored payload back;
     * callers pass the same decoder for the same query, so an entry always decodes to the same type.
     */
    async get<A>(provider: string, source: string, query: string, fetchAnswer: () => Promise<Fetched<A>>, decode: (payload: Payload) => A): Promise<CachedAnswer<A>> {
      // The source is part of the key: after a restart on another snapshot or on SDA, an old entry is never a hit.
      const key = `${provider}|${source}|${query}`;
      const entry = disabled ? undefined : fresh(key, now(), decode);
      if (entry) {
        hits++;
        return { answer: entry.answer as A, source, digest: entry.digest, hit: true, storedAt: entry.storedAt, stale: false, upstreamMs: 0 };
      }
      const pending = inFlight.get(key) as Promise<CachedAnswer<A>> | undefined;
      // A request that joins an in-flight call shares its fresh answer (not a cache hit: it is this moment's upstream answer).
      if (pending) return pending;
      const loading = load(key, provider, source, fetchAnswer, decode).finally(() => inFlight.delete(key));
      inFlight.set(key, loading);
      return loading;
    },
    stats() {
      return { hits, misses, stores, memoryHits, memoryEntries: memory.size };
    },
    /** Test and operator aid: is there a stored entry for this query? */
    has(provider: string, source: string, query: string): boolean {
      return read(`${provider}|${source}|${query}`) !== undefined;
    },
  };
}
export type UpstreamCache = ReturnType<typeof createUpstreamCache>;
