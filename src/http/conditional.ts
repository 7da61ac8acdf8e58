/**
 * Conditional requests (docs/decisions.md#http-caching): the entity tag of each representation and
 * the 304 for a client that already holds it.
 *
 * - A data answer's tag names the data it serves: its key, the source's identity, the digest of the
 *   stored upstream answer and, when stale, the stale warning's inputs. So replicas and a cache turned
 *   off agree on it, and a stale answer's tag is not a fresh one's. A fresh tag is hashed once per
 *   distinct inputs, so a 304 hashes nothing and builds no body.
 * - Other JSON gets a tag from its body, files from their bytes.
 * - A table (CSV) is its own representation (`-csv`), each encoding too (`-br`, `-gzip`, encodedTag):
 *   If-None-Match with any encoding's variant of the tag is a 304 naming the variant the client holds.
 */
import type { DataAnswer } from "../answer";
import { Memo } from "../lru";
import { VERSION } from "../version";

export function entityTag(...parts: (string | number)[]): string {
  return `"${Bun.hash(`${VERSION}|${parts.join("|")}`).toString(36)}"`;
}

/** The client's tag that matches `etag` (its own representation's variant), or null. */
export function matchingTag(request: Request, etag: string): string | null {
  const header = request.headers.get("if-none-match");
  if (header === null) return null;
  // The usual case: the tag the client was sent, alone.
  if (header === etag) return etag;
  if (header.trim() === "*") return etag;
  // A client holding the gzip or brotli representation sends that variant's tag.
  const bare = etag.slice(0, -1);
  for (const candidate of header.split(",")) {
    let tag = candidate.trim();
    if (tag.startsWith("W/")) tag = tag.slice(2);
    if (tag === etag || tag === `${bare}-br"` || tag === `${bare}-gzip"`) return tag;
  }
  return null;
}

/** The entity tag of a data answer: the data it serves, not when it was fetched. */
export function dataTag<T>(answer: DataAnswer<T>): string {
  const cache = answer.cache;
  // A stale body carries a warning naming the failure and when the copy was stored.
  const staleness = cache.stale ? `stale|${cache.storedAt}|${cache.staleBecause?.code ?? ""}|${cache.staleBecause?.message ?? ""}` : "fresh";
  return entityTag(answer.key, cache.source, cache.digest, staleness);
}

/** The CSV representation's own tag: a JSON tag in If-None-Match never matches it, nor the reverse. */
export function csvTag(etag: string): string {
  return etag.endsWith('"') ? `${etag.slice(0, -1)}-csv"` : etag;
}

/** Fresh data tags kept per pipeline (a few hundred bytes each). */
const FRESH_TAGS_MAX = 4096;

/**
 * The tag of each data answer, per app (a data tag is unique only within the app, its cache, that
 * made it). A fresh answer's tag is a hash of its key, source and digest: the same inputs come back
 * on every hit, so each is hashed once (bounded: emptied when full; docs/decisions.md#hot-path).
 */
export function dataTags(): <T>(answer: DataAnswer<T>) => string {
  const fresh = new Memo<string, string>(FRESH_TAGS_MAX);
  return (answer) => {
    if (answer.cache.stale) return dataTag(answer);
    return fresh.of(`${answer.key}\u0000${answer.cache.source}\u0000${answer.cache.digest}`, () => dataTag(answer));
  };
}
