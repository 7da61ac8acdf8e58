/**
 * The upstream cache (DESIGN §3): SQLite entries keyed by provider + normalized logical query,
 * a lifetime, one shared upstream call for identical concurrent requests, stale-if-error, and a size
 * bound that evicts the oldest entries. Only complete, parsed answers are stored; failures never.
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
  now?: () => number;
}

export function createUpstreamCache(db: LoamDatabase, options: CacheOptions) {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 10_000;
  const inFlight = new Map<string, Promise<CachedAnswer>>();
  // CACHE_TTL_SECONDS=0 turns the store off (identical concurrent requests still share one call).
  const disabled = options.ttlSeconds === 0;
  const select = db.select().from(cacheEntries).where(eq(cacheEntries.key, sql.placeholder("key"))).prepare();
  let stores = 0;
  let hits = 0;
  let misses = 0;

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
        for (const { key: old } of oldest) tx.delete(cacheEntries).where(eq(cacheEntries.key, old)).run();
      }
    });
    stores++;
  }

  async function load(key: string, provider: string, fetchAnswer: () => Promise<UpstreamAnswer>): Promise<CachedAnswer> {
    const started = now();
    try {
      const answer = await fetchAnswer();
      const storedAt = now();
      if (!disabled) store(key, provider, answer, storedAt);
      misses++;
      return { answer, hit: false, storedAt, stale: false, upstreamMs: storedAt - started };
    } catch (error) {
      const stale = read(key);
      if (stale && error instanceof LoamError && error.retryable) {
        hits++;
        return { answer: decode(stale.payload), hit: true, storedAt: stale.storedAt, stale: true, staleBecause: error, upstreamMs: now() - started };
      }
      throw error;
    }
  }

  return {
    /** The answer for `query`, from the cache when fresh, else from `fetchAnswer` (shared by concurrent callers). */
    async get(provider: string, query: LogicalQuery, fetchAnswer: () => Promise<UpstreamAnswer>): Promise<CachedAnswer> {
      const key = `${provider}|${canonicalQuery(query)}`;
      const entry = disabled ? undefined : read(key);
      if (entry && entry.expiresAt > now()) {
        hits++;
        return { answer: decode(entry.payload), hit: true, storedAt: entry.storedAt, stale: false, upstreamMs: 0 };
      }
      const pending = inFlight.get(key);
      // A request that joins an in-flight call shares its fresh answer (not a cache hit: it is this moment's upstream answer).
      if (pending) return pending;
      const loading = load(key, provider, fetchAnswer).finally(() => inFlight.delete(key));
      inFlight.set(key, loading);
      return loading;
    },
    stats() {
      return { hits, misses, stores };
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

