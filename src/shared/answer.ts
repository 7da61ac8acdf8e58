/**
 * What every data answer shares, whichever feature asked: a prepared answer (validators first, body
 * on demand), the cache metadata of the body, its HTTP lifetime, and the warnings that say where the
 * data came from. Knows nothing of HTTP beyond the numbers the route puts in headers.
 */
import type { CachedAnswer } from "../upstream/cache";
import type { UpstreamSource } from "../upstream/source";

export interface Prepared<T> {
  etag: string;
  maxAgeSeconds: number;
  cached: CachedAnswer;
  body: () => T;
}

/** The parts of a feature's dependencies the answer helpers read. */
export interface AnswerClock {
  cacheTtlSeconds: number;
  now: () => number;
}

export function cacheMetadata(cached: CachedAnswer, now: number) {
  return { hit: cached.hit, stored_at: new Date(cached.storedAt).toISOString(), age_seconds: Math.max(0, Math.floor((now - cached.storedAt) / 1000)) };
}

/** Cache-Control max-age: what is left of the entry's lifetime (at most a day); 0 for a stale answer. */
export function maxAge(deps: AnswerClock, cached: CachedAnswer): number {
  if (cached.stale) return 0;
  const remaining = Math.floor((cached.storedAt + deps.cacheTtlSeconds * 1000 - deps.now()) / 1000);
  return Math.max(0, Math.min(remaining, 86_400));
}

/** Warnings every answer from this source carries: where the data came from, and whether it is stale. */
export function sourceWarnings(source: UpstreamSource, cached: CachedAnswer): string[] {
  const warnings: string[] = [];
  if (source.kind === "snapshot") {
    const description = source.describe();
    warnings.push(
      `Served from Loam's offline snapshot of dated USDA-NRCS exports${description.builtAt ? ` (built ${description.builtAt.slice(0, 10)})` : ""}, not from a live query of Soil Data Access; mapped-survey retrieval dates (source.retrieved_at) are the survey export's version date. Snapshot coverage: ${(description.coverage ?? []).join("; ") || "unknown"}.`,
    );
  }
  if (cached.stale) {
    warnings.push(
      `Stale answer: the upstream failed (${cached.staleBecause?.message ?? "error"}), so this is the cached copy stored at ${new Date(cached.storedAt).toISOString()}, past its lifetime.`,
    );
  }
  return warnings;
}

/** Raw endpoints in snapshot mode: the payload has SDA's shape but no live SDA behind it. */
const RAW_SNAPSHOT_WARNING =
  "In snapshot mode this payload is built from the offline snapshot in the same table shape Soil Data Access returns (JSON+COLUMNNAME+METADATA); it is not a live SDA answer.";

/** Warnings of a raw answer: the endpoint's own, then where the payload came from and whether it is stale. */
export function rawWarnings(source: UpstreamSource, cached: CachedAnswer, own: string[]): string[] {
  return [...own, ...(source.kind === "snapshot" ? [RAW_SNAPSHOT_WARNING] : []), ...sourceWarnings(source, cached)];
}

/** The part of a data answer's entity tag that says whether it is a stale copy. */
export function freshness(cached: CachedAnswer): "stale" | "fresh" {
  return cached.stale ? "stale" : "fresh";
}
