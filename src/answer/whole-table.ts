/**
 * A CSV is never silently partial (docs/decisions.md#csv-whole): `read.csv` and pandas cannot follow
 * a Link header, so on a paged route `format=csv` walks every page of the query from the cursor on and
 * answers all its rows in one file, up to CSV_ROW_CAP rows; past the cap it is a 422 that names the cap
 * and how to narrow the query. Knows nothing of HTTP: the route says whether the answer is a table.
 */
import { ValidationError } from "../errors";
import type { CacheDescriptor } from ".";

/** Most rows of one CSV answer by default (LOAM_CSV_MAX_ROWS; docs/decisions.md#csv-whole). */
export const CSV_ROW_CAP = 50_000;

/** The cap this app was configured with. */
export const csvCap = (deps: { csvMaxRows?: number }) => deps.csvMaxRows ?? CSV_ROW_CAP;

const counted = (n: number) => n.toLocaleString("en-US");

/** The 422 of a CSV past its cap: what its rows are, the cap, and how to narrow the query. */
export function csvTooLarge(cap: number, rows: string, narrow: string, provider: string | null = null): ValidationError {
  return new ValidationError(
    `format=csv answers every row of a query in one file, at most ${counted(cap)} rows; this query has more than ${counted(cap)} ${rows}. Narrow it (${narrow}), or page the JSON answer with its cursor.`,
    provider,
  );
}

/**
 * Every page of a keyset-paged query from `after` on: `page(after)` gives one page, `nextOf` where the
 * next starts (null on the last), `rowsOf` its rows. Refused (`refuse()`) as soon as the rows pass the cap.
 */
export async function everyPage<P>(
  cap: number,
  after: string | null,
  page: (after: string | null) => Promise<P>,
  nextOf: (page: P) => string | null,
  rowsOf: (page: P) => number,
  refuse: () => Error,
): Promise<P[]> {
  const pages: P[] = [];
  let rows = 0;
  let position: string | null = after;
  do {
    const one: P = await page(position);
    pages.push(one);
    rows += rowsOf(one);
    if (rows > cap) throw refuse();
    position = nextOf(one);
  } while (position !== null);
  return pages;
}

/** Several stored answers behind one body: fresh only if all are, as old as the oldest, named by all digests. */
export function combinedCache(parts: readonly (Omit<CacheDescriptor, "ttlSeconds"> & { ttlSeconds?: number })[], ttlSeconds: number): CacheDescriptor {
  const oldest = parts.reduce((a, b) => (b.storedAt < a.storedAt ? b : a));
  const stale = parts.find((p) => p.stale);
  return {
    source: parts[0]!.source,
    digest: Bun.hash(parts.map((p) => p.digest).join("+")).toString(36),
    hit: parts.every((p) => p.hit),
    storedAt: oldest.storedAt,
    stale: stale !== undefined,
    staleBecause: stale?.staleBecause,
    ttlSeconds: Math.min(...parts.map((p) => p.ttlSeconds ?? ttlSeconds)),
    upstreamMs: parts.reduce((sum, p) => sum + p.upstreamMs, 0),
  };
}
