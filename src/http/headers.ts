/** The header bag Elysia hands a route (`set`), and finished Responses made from it. */

export type HeaderBag = Record<string, unknown>;
export interface SetLike {
  headers: HeaderBag;
  status?: unknown;
}

/** Header values as strings. */
export function toHeaders(bag: HeaderBag): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in bag) {
    const value = bag[name];
    if (value !== undefined && value !== null) headers[name] = String(value);
  }
  return headers;
}

/**
 * A finished Response with every header in it (`keep` sees them as sent: the pipeline remembers an
 * answer to send again, repeat-answers.ts). `set` is then given empty headers, so Elysia sends the
 * Response as it is instead of copying it into one with merged headers (about 5 % of a cached
 * answer's cost); a fresh object is cheaper than deleting a dozen properties from the old one.
 */
export function finished(body: BodyInit | null, status: number, set: SetLike, keep?: (headers: Record<string, string>) => void): Response {
  const headers = toHeaders(set.headers);
  keep?.(headers);
  const response = new Response(body, { status, headers });
  set.headers = {};
  return response;
}

/** Longest max-age a data answer is given, whatever is left of its cache entry. */
const MAX_AGE_CAP_SECONDS = 86_400;

/** What is left of a cache entry's lifetime, in whole seconds, at most a day (0 when stale). */
export function maxAgeSeconds(expiresAt: number, now: number, stale = false): number {
  return stale ? 0 : Math.max(0, Math.min(Math.floor((expiresAt - now) / 1000), MAX_AGE_CAP_SECONDS));
}

/** A data answer's Cache-Control: its max-age counted down to its cache entry's end. */
export function dataCacheControl(expiresAt: number, now: number, stale = false): string {
  return `public, max-age=${maxAgeSeconds(expiresAt, now, stale)}`;
}

export function statusOf(set: SetLike): number {
  return typeof set.status === "number" ? set.status : 200;
}
