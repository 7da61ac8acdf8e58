/**
 * What every data answer shares, whichever feature made it (docs/architecture.md#answers): the answer
 * a service returns (data plus a cache descriptor), the cache metadata of its body, and the warnings
 * that say where the data came from. Knows nothing of HTTP: the response pipeline (src/http/response.ts)
 * turns an answer into validators, headers and bytes.
 */
import { ValidationError } from "../errors";
import { notServedWarning } from "../catalog/not-served";
import type { SourceDescription } from "../upstream/transport";
import type { CachedAnswer } from "../upstream/cache";
import type { Connected } from "../providers/connect";
import type { OperationalProvider } from "../providers/provider";
import type { Registry } from "../providers/registry";
import type { CacheMetadata } from "../domain/model";
import { coverageWords } from "../domain/coverage";

/**
 * Where an answer's upstream data stand in the cache: the cache's own account of an answer (source,
 * digest, hit, stored_at, staleness, upstream time; see CachedAnswer) and the lifetime that applies.
 */
export interface CacheDescriptor extends Pick<CachedAnswer<unknown>, "source" | "digest" | "hit" | "storedAt" | "stale" | "staleBecause" | "upstreamMs"> {
  /** The entry's lifetime (CACHE_TTL_SECONDS, or the transport's own: docs/decisions.md#cache). */
  ttlSeconds: number;
}

/**
 * A data answer as a service returns it. `key` names everything the body is made of except its
 * `cache` metadata (which grows with age): the same key with the same stored_at and freshness is the
 * same body, so the pipeline derives the entity tag from them and may reuse a rendered body.
 */
export interface DataAnswer<T> {
  key: string;
  cache: CacheDescriptor;
  /** The body, built on demand (never for a 304); its `cache` member is `cacheMetadata(cache, now)`. */
  body: () => T;
}

export function cacheMetadata(cache: Pick<CacheDescriptor, "hit" | "storedAt">, now: number): CacheMetadata {
  return { hit: cache.hit, stored_at: new Date(cache.storedAt).toISOString(), age_seconds: Math.max(0, Math.floor((now - cache.storedAt) / 1000)) };
}

/** Warnings every answer from this source carries: where the data came from, and whether it is stale. */
export function sourceWarnings(source: SourceDescription, cache: CacheDescriptor): string[] {
  const warnings: string[] = [];
  if (source.kind === "snapshot") {
    warnings.push(
      `Served from Loam's offline snapshot of dated USDA-NRCS exports${source.builtAt ? ` (built ${source.builtAt.slice(0, 10)})` : ""}, not from a live query of Soil Data Access; retrieved_at is when the snapshot was built, and each survey's own version date is in its citation and warnings. Snapshot coverage: ${coverageWords(source) || "unknown"}.`,
    );
  }
  warnings.push(...staleWarnings(cache));
  return warnings;
}

/** The warning of a stale answer (none for a fresh one), whatever its source. */
export function staleWarnings(cache: CacheDescriptor): string[] {
  return cache.stale
    ? [`Stale answer: the upstream failed (${cache.staleBecause?.message ?? "error"}), so this is the cached copy stored at ${new Date(cache.storedAt).toISOString()}, past its lifetime.`]
    : [];
}

/** Raw endpoints in snapshot mode: the payload has SDA's shape but no live SDA behind it. */
const RAW_SNAPSHOT_WARNING =
  "In snapshot mode this payload is built from the offline snapshot in the same table shape Soil Data Access returns (JSON+COLUMNNAME+METADATA); it is not a live SDA answer.";

/** Warnings of a raw answer: the endpoint's own, then where the payload came from and whether it is stale. */
export function rawWarnings(source: SourceDescription, cache: CacheDescriptor, own: readonly string[]): string[] {
  return [...own, ...(source.kind === "snapshot" ? [RAW_SNAPSHOT_WARNING] : []), ...sourceWarnings(source, cache)];
}

/** depth_bottom_cm must lie below depth_top_cm (the per-parameter bounds are checked by the schema). */
export function checkDepthInterval(top: number, bottom: number): void {
  if (bottom <= top) {
    throw new ValidationError(`Query parameter 'depth_bottom_cm' (${bottom}) must be greater than 'depth_top_cm' (${top}).`);
  }
}

/** The cache descriptor of an upstream answer; `ttlSeconds` (CACHE_TTL_SECONDS) unless the entry has its own lifetime. */
export function describeCache(cached: CachedAnswer<unknown>, ttlSeconds: number): CacheDescriptor {
  return {
    source: cached.source,
    digest: cached.digest,
    hit: cached.hit,
    storedAt: cached.storedAt,
    stale: cached.stale,
    staleBecause: cached.staleBecause,
    ttlSeconds: cached.ttlSeconds ?? ttlSeconds,
    upstreamMs: cached.upstreamMs,
  };
}

/** Dependencies of the data features: the connected providers, the registry, the cache lifetime, the clock. */
export interface DataDeps {
  registry: Registry;
  connected: Connected;
  cacheTtlSeconds: number;
  now: () => number;
  /** Most rows of one CSV answer (LOAM_CSV_MAX_ROWS; docs/decisions.md#csv-whole); absent: the default. */
  csvMaxRows?: number;
}

/** The warning for requested properties Loam does not serve from a provider (not that the source lacks them). */
export function unsupportedWarnings(provider: OperationalProvider, requested: readonly string[]): string[] {
  const served = [...new Set(provider.columns.map((c) => c.property))];
  return requested.filter((id) => !served.includes(id)).map((id) => notServedWarning(provider.id, id, served));
}
