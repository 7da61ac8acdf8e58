/**
 * The upstream cache (DESIGN §3): SQLite entries keyed by provider + normalized logical query,
 * a lifetime, one shared upstream call for identical concurrent requests, stale-if-error, and a size
 * bound that evicts the oldest entries. Only complete, parsed answers are stored; failures never.
 *
 * SQLite is the store of record; in front of it a small in-process LRU keeps the decoded answers
 * (payload parsed, table validated) of recently used entries, so a hit neither reads the row nor
 * parses its JSON again. It is written through on every store, so it never holds an answer that was
 * not stored, and an entry past its lifetime is never served from it.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { LoamDatabase } from "../../db/client";
import { cacheEntries } from "../../db/schema";
import { LoamError } from "../errors";
import { canonicalQuery, type LogicalQuery } from "./queries";
import { parseSdaPayload } from "./sda-payload";
import type { UpstreamAnswer } from "./table";

export interface CachedAnswer {
  answer: UpstreamAnswer;
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

export interface CacheOptions {
  ttlSeconds: number;
  /** Entries kept at most; the oldest are evicted first. */
  maxEntries?: number;
  /** Decoded answers kept in memory at most (entries and payload characters). */
  memoryEntries?: number;
  memoryChars?: number;
  now?: () => number;
}

/**
 * A least-recently-used map bounded in entries and in a caller-given weight (e.g. characters).
 * Map iteration order is insertion order, so re-inserting on use keeps the oldest first.
 */
export class Lru<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private total = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight: number,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V, weight: number): void {
    this.delete(key);
    if (weight > this.maxWeight || this.maxEntries <= 0) return;
    this.entries.set(key, { value, weight });
    this.total += weight;
    while (this.entries.size > this.maxEntries || this.total > this.maxWeight) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  /** Change the weight of an entry already present (its value grew or shrank in place). */
  reweigh(key: K, weight: number): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.total += weight - entry.weight;
    entry.weight = weight;
    while (this.total > this.maxWeight && this.entries.size > 0) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.weight;
  }

  get size(): number {
    return this.entries.size;
  }

  get weight(): number {
    return this.total;
  }
}

/**
 * Where an answer came from: the clock of the cache that produced it (so its age can be computed where
 * it is sent) and a token for that cache instance (so what is kept about its answers elsewhere, such
 * as rendered bodies, is never shared with another app in the same process).
 */
export interface AnswerOrigin {
  now: () => number;
  scope: object;
}

const origins = new WeakMap<CachedAnswer, AnswerOrigin>();

export function originOf(cached: CachedAnswer): AnswerOrigin | undefined {
  return origins.get(cached);
}

interface Remembered {
  answer: UpstreamAnswer;
  storedAt: number;
  expiresAt: number;
}

export function createUpstreamCache(db: LoamDatabase, options: CacheOptions) {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 10_000;
  const inFlight = new Map<string, Promise<CachedAnswer>>();
  // CACHE_TTL_SECONDS=0 turns the store off (identical concurrent requests still share one call).
  const disabled = options.ttlSeconds === 0;
  const select = db.select().from(cacheEntries).where(eq(cacheEntries.key, sql.placeholder("key"))).prepare();
  const memory = new Lru<string, Remembered>(options.memoryEntries ?? 500, options.memoryChars ?? 8_000_000);
  let stores = 0;
  let hits = 0;
  let misses = 0;
  let memoryHits = 0;

  const origin: AnswerOrigin = { now, scope: {} };

  function answered(cached: CachedAnswer): CachedAnswer {
    origins.set(cached, origin);
    return cached;
  }

  /** A fresh entry: from memory, else from SQLite (then remembered). */
  function fresh(key: string, at: number): Remembered | undefined {
    const remembered = memory.get(key);
    if (remembered && remembered.expiresAt > at) {
      memoryHits++;
      return remembered;
    }
    const entry = read(key);
    if (!entry || entry.expiresAt <= at) return undefined;
    const decoded = { answer: decode(entry.payload), storedAt: entry.storedAt, expiresAt: entry.expiresAt };
    memory.set(key, decoded, entry.payload.length);
    return decoded;
  }

  function read(key: string) {
    return select.get({ key });
  }

  function store(key: string, provider: string, answer: UpstreamAnswer, storedAt: number): void {
    const payload = JSON.stringify(answer.payload);
    const entry = { key, provider, payload, storedAt, expiresAt: storedAt + options.ttlSeconds * 1000, bytes: payload.length };
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

  async function load(key: string, provider: string, fetchAnswer: () => Promise<UpstreamAnswer>): Promise<CachedAnswer> {
    const started = now();
    try {
      const answer = await fetchAnswer();
      const storedAt = now();
      if (!disabled) store(key, provider, answer, storedAt);
      misses++;
      return answered({ answer, hit: false, storedAt, stale: false, upstreamMs: storedAt - started });
    } catch (error) {
      const stale = read(key);
      if (stale && error instanceof LoamError && error.retryable) {
        hits++;
        return answered({ answer: decode(stale.payload), hit: true, storedAt: stale.storedAt, stale: true, staleBecause: error, upstreamMs: now() - started });
      }
      throw error;
    }
  }

  return {
    /** The answer for `query`, from the cache when fresh, else from `fetchAnswer` (shared by concurrent callers). */
    async get(provider: string, query: LogicalQuery, fetchAnswer: () => Promise<UpstreamAnswer>): Promise<CachedAnswer> {
      const key = `${provider}|${canonicalQuery(query)}`;
      const entry = disabled ? undefined : fresh(key, now());
      if (entry) {
        hits++;
        return answered({ answer: entry.answer, hit: true, storedAt: entry.storedAt, stale: false, upstreamMs: 0 });
      }
      const pending = inFlight.get(key);
      // A request that joins an in-flight call shares its fresh answer (not a cache hit: it is this moment's upstream answer).
      if (pending) return pending;
      const loading = load(key, provider, fetchAnswer).finally(() => inFlight.delete(key));
      inFlight.set(key, loading);
      return loading;
    },
    stats() {
      return { hits, misses, stores, memoryHits, memoryEntries: memory.size };
    },
    /** Test and operator aid: is there a stored entry for this query? */
    has(provider: string, query: LogicalQuery): boolean {
      return read(`${provider}|${canonicalQuery(query)}`) !== undefined;
    },
  };
}
export type UpstreamCache = ReturnType<typeof createUpstreamCache>;

function decode(payload: string): UpstreamAnswer {
  const json = JSON.parse(payload) as Record<string, unknown>;
  return { payload: json, table: parseSdaPayload(json) };
}

