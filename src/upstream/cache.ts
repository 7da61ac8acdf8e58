/**
 * The upstream cache (docs/decisions.md#cache): SQLite entries keyed by provider + logical query,
 * a lifetime, one shared upstream call for identical concurrent requests, stale-if-error, and a size
 * bound that evicts the oldest entries. Only complete, decoded answers are stored; failures never.
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
  /** The entry's lifetime when the caller chose one other than the cache's (a transport's own ttl). */
  ttlSeconds?: number;
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
  /** Decoded answers kept in memory at most (entries and payload characters). */
  memoryEntries?: number;
  memoryChars?: number;
  now?: () => number;
}

interface Remembered {
  answer: unknown;
  storedAt: number;
  expiresAt: number;
}

export function createUpstreamCache(db: LoamDatabase, options: CacheOptions) {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 10_000;
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
    const decoded = { answer: decode(Payload.ofText(entry.payload)), storedAt: entry.storedAt, expiresAt: entry.expiresAt };
    memory.set(key, decoded, entry.payload.length);
    return decoded;
  }

  function read(key: string) {
    return select.get({ key });
  }

  function store(key: string, provider: string, fetched: Fetched<unknown>, storedAt: number, ttlSeconds: number): void {
    const payload = fetched.payload.text();
    const answer = fetched.answer;
    const entry = { key, provider, payload, storedAt, expiresAt: storedAt + ttlSeconds * 1000, bytes: payload.length };
    db.transaction((tx) => {
      tx.insert(cacheEntries).values(entry).onConflictDoUpdate({ target: cacheEntries.key, set: entry }).run();
      // Evicting in the same transaction keeps the bound exact even under concurrent writers.
      const count = tx.select({ n: sql<number>`count(*)` }).from(cacheEntries).get()?.n ?? 0;
      if (count > maxEntries) {
        const oldest = tx.select({ key: cacheEntries.key }).from(cacheEntries).orderBy(asc(cacheEntries.storedAt)).limit(count - maxEntries).all();
        for (const { key: old } of oldest) {
          tx.delete(cacheEntries).where(eq(cacheEntries.key, old)).run();
          memory.delete(old);
        }
      }
    });
    // Remembered only once the row is committed.
    memory.set(key, { answer, storedAt, expiresAt: entry.expiresAt }, payload.length);
    stores++;
  }

  async function load<A>(key: string, provider: string, fetchAnswer: () => Promise<Fetched<A>>, decode: (payload: Payload) => A, ttlSeconds: number): Promise<CachedAnswer<A>> {
    const started = now();
    try {
      const fetched = await fetchAnswer();
      const storedAt = now();
      if (!disabled) store(key, provider, fetched, storedAt, ttlSeconds);
      misses++;
      return { answer: fetched.answer, hit: false, storedAt, stale: false, upstreamMs: storedAt - started };
    } catch (error) {
      const stale = read(key);
      if (stale && error instanceof LoamError && error.retryable) {
        hits++;
        return { answer: decode(Payload.ofText(stale.payload)), hit: true, storedAt: stale.storedAt, stale: true, staleBecause: error, upstreamMs: now() - started };
      }
      throw error;
    }
  }

  return {
    /**
     * The answer for `query` (a stable text naming the logical query) of `provider`: from the cache when
     * fresh, else from `fetchAnswer` (shared by concurrent callers). `decode` reads a stored payload back;
     * callers pass the same decoder for the same query, so an entry always decodes to the same type.
     * `ttlSeconds` replaces the cache's lifetime for this entry (a transport's own, Transport.ttlSeconds).
     */
    async get<A>(
      provider: string,
      query: string,
      fetchAnswer: () => Promise<Fetched<A>>,
      decode: (payload: Payload) => A,
      ttlSeconds?: number,
    ): Promise<CachedAnswer<A>> {
      const key = `${provider}|${query}`;
      const own = ttlSeconds === undefined ? {} : { ttlSeconds };
      const entry = disabled ? undefined : fresh(key, now(), decode);
      if (entry) {
        hits++;
        return { answer: entry.answer as A, hit: true, storedAt: entry.storedAt, stale: false, upstreamMs: 0, ...own };
      }
      const pending = inFlight.get(key) as Promise<CachedAnswer<A>> | undefined;
      // A request that joins an in-flight call shares its fresh answer (not a cache hit: it is this moment's upstream answer).
      if (pending) return pending;
      const loading = load(key, provider, fetchAnswer, decode, ttlSeconds ?? options.ttlSeconds)
        .then((answer) => ({ ...answer, ...own }))
        .finally(() => inFlight.delete(key));
      inFlight.set(key, loading);
      return loading;
    },
    stats() {
      return { hits, misses, stores, memoryHits, memoryEntries: memory.size };
    },
    /** Test and operator aid: is there a stored entry for this query? */
    has(provider: string, query: string): boolean {
      return read(`${provider}|${query}`) !== undefined;
    },
  };
}
export type UpstreamCache = ReturnType<typeof createUpstreamCache>;
