/**
 * The upstream cache (docs/decisions.md#cache): entries keyed by provider + source identity + logical
 * query, a lifetime, one shared upstream call for identical concurrent requests, stale-if-error, and
 * bounds in entries and in bytes that evict the oldest entries first. Only complete, decoded answers
 * are stored; failures never.
 *
 * Entries are opaque payloads: the cache never knows what a provider's answer looks like. Each call
 * brings the decoder of its query, used when an entry is read back from its store.
 *
 * Where entries live is a `CacheStore`: SQLite (LOAM_DB) by default, or Redis (REDIS_URL) when several
 * instances share one cache; a store shared between instances also shares the one upstream call per
 * question (`exclusive`). In front of the store a small in-process LRU keeps the decoded answers of
 * recently used entries, so a hit neither reads the store nor decodes again. It is written through on
 * every store, so it never holds an answer that was not stored, and an entry past its lifetime is
 * never served from it.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { LoamDatabase } from "../../db/client";
import { cacheEntries } from "../../db/schema";
import { LoamError } from "../errors";
import { Lru } from "../lru";
import { currentRequest } from "../request-scope";
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
  /** The entry's own lifetime when its transport sets one (Transport.ttlSeconds); else CACHE_TTL_SECONDS. */
  ttlSeconds?: number;
}

/** A fresh upstream answer: the payload to store and the answer decoded from it. */
export interface Fetched<A> {
  payload: Payload;
  answer: A;
}

/** One entry as a store keeps it: the payload as the upstream sent it, and its times. */
export interface StoredEntry {
  provider: string;
  payload: string;
  /** When the upstream answered (ms since epoch). */
  storedAt: number;
  /** When it stops being fresh (ms since epoch); a store may keep it longer, for stale-if-error. */
  expiresAt: number;
}

/** What a store did with a write: whether the entry is stored, and the keys it evicted to stay in bounds. */
export interface StoreResult {
  stored: boolean;
  evicted: readonly string[];
}

/** A stored entry that cannot be what its key names (damaged, truncated, or copied from another key). */
export class CorruptEntryError extends Error {
  constructor(readonly reason: string) {
    super(`corrupt cache entry: ${reason}`);
    this.name = "CorruptEntryError";
  }
}

/** Told of each corrupt entry the cache deleted (docs/decisions.md#cache-entries), with the request it happened in. */
export type CorruptEntryHandler = (event: { store: string; provider: string; reason: string; requestId: string | null }) => void;

/** The steps of one upstream call shared between instances (see `CacheStore.exclusive`). */
export interface ExclusiveSteps<T> {
  /** The stored answer, if another instance has stored it meanwhile. */
  lookup(): Promise<T | undefined>;
  /** Ask the upstream and store the answer. */
  produce(): Promise<T>;
}

/**
 * Where cache entries live. A store that cannot read or write (LOAM_DB full, Redis down) answers
 * "absent" and "not stored": the request goes on uncached, never fails because of the store.
 */
export interface CacheStore {
  /** sqlite or redis (for stats and logs). */
  readonly kind: string;
  /** The entry, fresh or expired; undefined when absent or unreadable; CorruptEntryError when it is not this key's entry. */
  read(key: string): StoredEntry | undefined | Promise<StoredEntry | undefined>;
  write(key: string, entry: StoredEntry): StoreResult | Promise<StoreResult>;
  /** Delete an entry (a corrupt one); absent: a corrupt entry is left to be overwritten. */
  remove?(key: string): void | Promise<void>;
  /** Payload bytes one entry may have in this store; a larger answer is kept in this process's memory only. */
  readonly maxEntryBytes?: number;
  /**
   * For a store shared by several instances: run `steps` so that one instance asks the upstream for
   * `key` while the others wait and look the answer up. Absent: one call per process.
   */
  exclusive?<T>(key: string, steps: ExclusiveSteps<T>): Promise<T>;
}

export type StorageErrorHandler = (operation: "read" | "write", error: unknown) => void;

export interface SqliteStoreOptions {
  /** Entries kept at most; the oldest are evicted first. */
  maxEntries?: number;
  /** Payload bytes (UTF-8) kept at most (CACHE_MAX_BYTES); the oldest entries are evicted first. */
  maxBytes?: number;
  onStorageError?: StorageErrorHandler;
}

/**
 * The default store: the cache_entries table of LOAM_DB, bounded in entries and in payload bytes
 * (oldest evicted first). A LOAM_DB read or write that fails (disk full, read-only, I/O error) degrades
 * instead of failing the request (docs/decisions.md#storage-faults): a failed read is a miss, a failed
 * write is skipped; `onStorageError` logs and counts it.
 */
export function createSqliteCacheStore(db: LoamDatabase, options: SqliteStoreOptions = {}): CacheStore {
  const maxEntries = options.maxEntries ?? 10_000;
  const maxBytes = options.maxBytes ?? 268_435_456;
  const select = db.select().from(cacheEntries).where(eq(cacheEntries.key, sql.placeholder("key"))).prepare();

  function evictInto(tx: Parameters<Parameters<LoamDatabase["transaction"]>[0]>[0], evicted: string[]): void {
    // Both totals and the oldest-first order come from the (stored_at, bytes) index, never the payload pages.
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
        evicted.push(old.key);
        count--;
        bytes -= old.bytes;
      }
    }
  }

  return {
    kind: "sqlite",
    read(key) {
      try {
        return select.get({ key });
      } catch (error) {
        options.onStorageError?.("read", error);
        return undefined;
      }
    },
    remove(key) {
      try {
        db.delete(cacheEntries).where(eq(cacheEntries.key, key)).run();
      } catch (error) {
        options.onStorageError?.("write", error);
      }
    },
    write(key, stored) {
      const entry = { key, ...stored, bytes: Buffer.byteLength(stored.payload) };
      // An answer larger than the whole bound would evict everything and then itself: served, not stored.
      if (entry.bytes > maxBytes) return { stored: false, evicted: [] };
      const evicted: string[] = [];
      try {
        db.transaction((tx) => {
          tx.insert(cacheEntries).values(entry).onConflictDoUpdate({ target: cacheEntries.key, set: entry }).run();
          // Evicting in the same transaction keeps the bounds exact even under concurrent writers.
          evictInto(tx, evicted);
        });
      } catch (error) {
        // Not stored (the transaction rolled back), so not remembered either.
        options.onStorageError?.("write", error);
        return { stored: false, evicted: [] };
      }
      return { stored: true, evicted };
    },
  };
}

export interface CacheOptions extends SqliteStoreOptions {
  ttlSeconds: number;
  /** Where entries live (default: the SQLite store over `db`, with the bounds and error handler above). */
  store?: CacheStore;
  /**
   * Decoded answers kept in memory at most (entries and payload characters). The characters bound
   * holds the largest answer an upstream may send (SDA's 32 MiB) twice over, so that answer is decoded
   * once per entry, not on every hit (docs/decisions.md#decode-once).
   */
  memoryEntries?: number;
  memoryChars?: number;
  now?: () => number;
  onCorruptEntry?: CorruptEntryHandler;
}

/** Reads a stored payload back as the query's typed answer (QueryKind.decode). */
export type Decoder<A> = (payload: Payload) => A | Promise<A>;

/** The digest of a payload text (see CachedAnswer.digest). */
export function payloadDigest(text: string): string {
  return Bun.hash(text).toString(36);
}

/** A stored payload that did not decode (see readDecodedPayload). */
const NOT_DECODED = Symbol("not decoded");

interface Remembered {
  answer: unknown;
  digest: string;
  storedAt: number;
  expiresAt: number;
}

export function createUpstreamCache(db: LoamDatabase, options: CacheOptions) {
  const now = options.now ?? Date.now;
  const store = options.store ?? createSqliteCacheStore(db, options);
  const inFlight = new Map<string, Promise<CachedAnswer<unknown>>>();
  // CACHE_TTL_SECONDS=0 turns the store off (identical concurrent requests still share one call).
  const disabled = options.ttlSeconds === 0;
  const memory = new Lru<string, Remembered>(options.memoryEntries ?? 500, options.memoryChars ?? 72_000_000);
  let stores = 0;
  let hits = 0;
  let misses = 0;
  let memoryHits = 0;

  /** A fresh entry remembered in memory, without waiting for anything. */
  function inMemory(key: string): Remembered | undefined {
    const remembered = memory.get(key);
    if (!remembered || remembered.expiresAt <= now()) return undefined;
    memoryHits++;
    return remembered;
  }

  /**
   * A corrupt entry (docs/decisions.md#cache-entries): deleted, reported with the request id, and
   * treated as absent, so the answer is fetched again instead of failing every request that reads it.
   */
  async function discard(key: string, error: unknown): Promise<void> {
    memory.delete(key);
    await store.remove?.(key);
    const reason = error instanceof CorruptEntryError ? error.reason : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    options.onCorruptEntry?.({ store: store.kind, provider: key.slice(0, key.indexOf("|")), reason, requestId: currentRequest()?.requestId ?? null });
  }

  /** The stored entry for `key` and its decoded answer; undefined when absent, or corrupt (then discarded). */
  async function readDecoded(key: string, decode: Decoder<unknown>): Promise<{ entry: StoredEntry; answer: unknown } | undefined> {
    try {
      const entry = await store.read(key);
      if (!entry) return undefined;
      return { entry, answer: await decode(Payload.fromStore(entry.payload)) };
    } catch (error) {
      await discard(key, error);
      return undefined;
    }
  }

  /** A fresh entry: from memory, else from the store (then remembered). */
  async function fresh(key: string, decode: Decoder<unknown>): Promise<Remembered | undefined> {
    const remembered = inMemory(key);
    if (remembered) return remembered;
    let entry: StoredEntry | undefined;
    try {
      entry = await store.read(key);
    } catch (error) {
      await discard(key, error);
      return undefined;
    }
    if (!entry || entry.expiresAt <= now()) return undefined;
    const stored = await readDecodedPayload(key, entry, decode);
    if (stored === NOT_DECODED) return undefined;
    const decoded = { answer: stored, digest: payloadDigest(entry.payload), storedAt: entry.storedAt, expiresAt: entry.expiresAt };
    memory.set(key, decoded, entry.payload.length);
    return decoded;
  }

  /** An entry's payload decoded; NOT_DECODED when it does not decode (the entry is then discarded). */
  async function readDecodedPayload(key: string, entry: StoredEntry, decode: Decoder<unknown>): Promise<unknown> {
    try {
      return await decode(Payload.fromStore(entry.payload));
    } catch (error) {
      await discard(key, error);
      return NOT_DECODED;
    }
  }

  async function save(key: string, provider: string, answer: unknown, payload: string, digest: string, storedAt: number, ttlSeconds: number): Promise<void> {
    const expiresAt = storedAt + ttlSeconds * 1000;
    if (store.maxEntryBytes !== undefined && payload.length > store.maxEntryBytes && Buffer.byteLength(payload) > store.maxEntryBytes) {
      // Too large for the shared store (docs/decisions.md#redis-values): kept in this process only, for its lifetime.
      memory.set(key, { answer, digest, storedAt, expiresAt }, payload.length);
      return;
    }
    const result = await store.write(key, { provider, payload, storedAt, expiresAt });
    for (const old of result.evicted) memory.delete(old);
    if (!result.stored) return;
    // Remembered only once the entry is stored.
    memory.set(key, { answer, digest, storedAt, expiresAt }, payload.length);
    stores++;
  }

  async function load<A>(key: string, provider: string, source: string, fetchAnswer: () => Promise<Fetched<A>>, decode: Decoder<A>, ttlSeconds: number): Promise<CachedAnswer<A>> {
    const started = now();
    try {
      const fetched = await fetchAnswer();
      const storedAt = now();
      // Native rows are stored as they are: no wire text is written on the way (docs/decisions.md#decode-once).
      const payload = fetched.payload.stored();
      const digest = payloadDigest(payload);
      if (!disabled) await save(key, provider, fetched.answer, payload, digest, storedAt, ttlSeconds);
      misses++;
      return { answer: fetched.answer, source, digest, hit: false, storedAt, stale: false, upstreamMs: storedAt - started };
    } catch (error) {
      const stale = disabled || !(error instanceof LoamError && error.retryable) ? undefined : await readDecoded(key, decode);
      if (stale && error instanceof LoamError) {
        hits++;
        return { answer: stale.answer as A, source, digest: payloadDigest(stale.entry.payload), hit: true, storedAt: stale.entry.storedAt, stale: true, staleBecause: error, upstreamMs: now() - started };
      }
      throw error;
    }
  }

  /** The upstream call, shared with the other instances when the store is shared. */
  function loadOnce<A>(key: string, provider: string, source: string, fetchAnswer: () => Promise<Fetched<A>>, decode: Decoder<A>, ttlSeconds: number): Promise<CachedAnswer<A>> {
    if (disabled || !store.exclusive) return load(key, provider, source, fetchAnswer, decode, ttlSeconds);
    return store.exclusive<CachedAnswer<A>>(key, {
      // Another instance stored it while this one waited: a hit on its entry.
      lookup: async () => {
        const entry = await fresh(key, decode);
        if (!entry) return undefined;
        hits++;
        return { answer: entry.answer as A, source, digest: entry.digest, hit: true, storedAt: entry.storedAt, stale: false, upstreamMs: 0 };
      },
      produce: () => load(key, provider, source, fetchAnswer, decode, ttlSeconds),
    });
  }

  /** A fresh answer remembered in memory for `key`, unless a call for it is in flight (its callers share that call's answer). */
  function rememberedAt<A>(key: string, source: string, ttlSeconds: number | undefined): CachedAnswer<A> | undefined {
    if (disabled || inFlight.has(key)) return undefined;
    const entry = inMemory(key);
    if (!entry) return undefined;
    hits++;
    const answer: CachedAnswer<A> = { answer: entry.answer as A, source, digest: entry.digest, hit: true, storedAt: entry.storedAt, stale: false, upstreamMs: 0 };
    if (ttlSeconds !== undefined) answer.ttlSeconds = ttlSeconds;
    return answer;
  }

  return {
    /**
     * The answer `get` would give at once from memory (a fresh remembered entry), or undefined: lets a
     * caller answer the common cached request without waiting on a promise (docs/decisions.md#hot-path).
     */
    remembered<A>(provider: string, source: string, query: string, ttlSeconds?: number): CachedAnswer<A> | undefined {
      return rememberedAt<A>(`${provider}|${source}|${query}`, source, ttlSeconds);
    },
    /**
     * The answer for `query` (a stable text naming the logical query) of `provider` read from `source`:
     * from the cache when fresh, else from `fetchAnswer` (shared by concurrent callers). `decode` reads a
     * stored payload back; callers pass the same decoder for the same query, so an entry always decodes
     * to the same type. `ttlSeconds` replaces the cache's lifetime for this entry (a transport's own,
     * Transport.ttlSeconds).
     */
    async get<A>(
      provider: string,
      source: string,
      query: string,
      fetchAnswer: () => Promise<Fetched<A>>,
      decode: Decoder<A>,
      ttlSeconds?: number,
    ): Promise<CachedAnswer<A>> {
      const own = ttlSeconds === undefined ? {} : { ttlSeconds };
      // The source is part of the key: after a restart on another snapshot or on SDA, an old entry is never a hit.
      const key = `${provider}|${source}|${query}`;
      const pending = inFlight.get(key) as Promise<CachedAnswer<A>> | undefined;
      // A request that joins an in-flight call shares its fresh answer (not a cache hit: it is this moment's upstream answer).
      if (pending) return pending;
      // A memory hit is answered without awaiting the store's read (the common cached answer).
      const kept = rememberedAt<A>(key, source, ttlSeconds);
      if (kept) return kept;
      const entry = disabled ? undefined : await fresh(key, decode);
      if (entry) {
        hits++;
        return { answer: entry.answer as A, source, digest: entry.digest, hit: true, storedAt: entry.storedAt, stale: false, upstreamMs: 0, ...own };
      }
      // The store read may have awaited: another request may have started the call meanwhile.
      const started = inFlight.get(key) as Promise<CachedAnswer<A>> | undefined;
      if (started) return started;
      const loading = loadOnce(key, provider, source, fetchAnswer, decode, ttlSeconds ?? options.ttlSeconds)
        .then((answer) => ({ ...answer, ...own }))
        .finally(() => inFlight.delete(key));
      inFlight.set(key, loading);
      return loading;
    },
    stats() {
      return { hits, misses, stores, memoryHits, memoryEntries: memory.size, store: store.kind };
    },
    /** Test and operator aid: is there a stored entry for this query? */
    async has(provider: string, source: string, query: string): Promise<boolean> {
      try {
        return (await store.read(`${provider}|${source}|${query}`)) !== undefined;
      } catch {
        return false;
      }
    },
  };
}
export type UpstreamCache = ReturnType<typeof createUpstreamCache>;
