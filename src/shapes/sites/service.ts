/**
 * The `sites` shape's service (docs/architecture.md#shapes, docs/decisions.md#sites): what every located
 * collection does the same way, through a provider's SitesPart only: its key read from a path segment
 * (a 422 in the provider's words), a page of a box after a keyset cursor, every page of a box from a
 * position on (a CSV, docs/decisions.md#csv-whole), the sites nearest a point, one site by key, and the
 * extent of every site (the provider's own query, else a walk over the world in pages). Lab pedons,
 * geochemistry sample sites and sensor stations call it; each keeps its own body, warnings and words.
 * Knows nothing of HTTP.
 */
import { clip, ValidationError } from "../../errors";
import type { DataDeps } from "../../answer";
import { combinedCache, csvCap, csvTooLarge, everyPage } from "../../answer/whole-table";
import { describeCache, type CacheDescriptor } from "../../answer";
import { cursorBinding, decodeCursor, encodeCursor } from "../../domain/cursor";
import type { CachedAnswer } from "../../upstream/cache";
import type { DataExtent, OperationalProvider, SitesBoxParams, SitesNearParams, SitesPart } from "../../providers/provider";
import type { Bbox } from "../../domain/bbox";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyPart<S = any, K = any, B extends SitesBoxParams = any, N extends SitesNearParams = any> = SitesPart<S, any, K, B, N, any>;

/** The whole world: the box every extent walk reads. */
export const WORLD: Bbox = [-180, -90, 180, 90];

/** The key of a path segment, or a 422 naming the parameter and the provider's key syntax. */
export function siteKey<K>(provider: { id: string }, part: AnyPart<unknown, K>, raw: string, parameter: string): K {
  const key = part.key.parse(raw);
  if (key === null) throw new ValidationError(`Path parameter '${parameter}' must be ${part.key.syntax}; got '${clip(raw).replace(/[\u0000-\u001f\u007f]/g, "?")}'.`, provider.id);
  return key;
}

/**
 * A box walk's cursors (docs/decisions.md#cursors): bound to what selects the sites (collection,
 * provider, box, and what the role adds), never to `limit`; a position is a key of the part's syntax.
 */
export function boxCursors(part: AnyPart, members: Record<string, unknown>) {
  const binding = cursorBinding(members);
  return {
    /** The key a cursor continues after (null: none), or a 422 when it belongs to another query or is not a key. */
    positionOf(cursor: string | null): string | null {
      if (cursor === null) return null;
      const after = decodeCursor(cursor, binding);
      if (part.key.parse(after) === null) throw new ValidationError("Query parameter 'cursor' is not a cursor Loam made; start again without it.");
      return after;
    },
    cursorAfter: (key: string) => encodeCursor(binding, key),
  };
}

/** One page of a box: the cached answer, its sites (at most `limit`), whether more follow and where the next page starts. */
export interface SitesPage<S> {
  cached: CachedAnswer<unknown>;
  sites: S[];
  truncated: boolean;
  /** The key the next page starts after; null on the last page. */
  nextAfter: string | null;
}

/** The page of the box after `params.after`, in key order. */
export async function boxPage<S, B extends SitesBoxParams>(deps: DataDeps, provider: OperationalProvider, part: AnyPart<S, unknown, B>, params: B): Promise<SitesPage<S>> {
  const cached = await deps.connected.ask(provider, part.inBox, params);
  const { sites, truncated, last } = part.page(cached.answer, params.limit, params);
  return { cached, sites, truncated, nextAfter: truncated ? last : null };
}

/**
 * How a whole box is read (a CSV, docs/decisions.md#csv-whole): every page, each of `limit`, up to the
 * CSV cap of rows, refused naming `rows`; or up to the caller's own `cap` of sites, refused by `refuse`
 * (e.g. when each site costs a query of its own).
 */
export type WholePaging = { after: string | null; limit: number; whole: true } & ({ rows: string } | { cap: number; refuse: () => Error });

/** The pages of a box from `after` on: one page of `limit`, or (`whole`) every page (WholePaging). With their cache. */
export async function boxPages<S, B extends SitesBoxParams>(
  deps: DataDeps,
  provider: OperationalProvider,
  part: AnyPart<S, unknown, B>,
  params: (after: string | null, limit: number) => B,
  paging: { after: string | null; limit: number; whole: false } | WholePaging,
): Promise<{ pages: SitesPage<S>[]; sites: S[]; truncated: boolean; nextAfter: string | null; cache: CacheDescriptor }> {
  const pages = paging.whole
    ? await everyPage(
        "cap" in paging ? paging.cap : csvCap(deps),
        paging.after,
        (position) => boxPage(deps, provider, part, params(position, paging.limit)),
        (page) => page.nextAfter,
        (page) => page.sites.length,
        "cap" in paging ? paging.refuse : () => csvTooLarge(csvCap(deps), paging.rows, "a smaller bbox", provider.id),
      )
    : [await boxPage(deps, provider, part, params(paging.after, paging.limit))];
  const last = pages[pages.length - 1]!;
  const cache = pages.length === 1 ? describeCache(pages[0]!.cached, deps.cacheTtlSeconds) : combinedCache(pages.map((p) => p.cached), deps.cacheTtlSeconds);
  return { pages, sites: pages.flatMap((p) => p.sites), truncated: last.truncated, nextAfter: last.nextAfter, cache };
}

/** The sites nearest a point, nearest first (a 422 when the provider does not find sites by distance). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function nearestSites<S, N extends SitesNearParams>(deps: DataDeps, provider: OperationalProvider, part: AnyPart<S, unknown, any, N>, params: N): Promise<{ cached: CachedAnswer<unknown>; sites: S[] }> {
  if (!part.nearest) throw new ValidationError(`${provider.id} does not find sites nearest a point; ask for a bbox.`, provider.id);
  const cached = await deps.connected.ask(provider, part.nearest, params);
  return { cached, sites: part.page(cached.answer, params.limit, params).sites };
}

/** One site's answer by key; null when the provider holds no such site (the caller's 404, in its words). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function oneSite<K>(deps: DataDeps, provider: OperationalProvider, part: AnyPart<unknown, K>, key: K): Promise<CachedAnswer<any> | null> {
  const cached = await deps.connected.ask(provider, part.one.query, part.one.params(key));
  return part.one.found(cached.answer) ? cached : null;
}

/** UTC days a site is dated by, first and last (last null: open, e.g. a station still reporting); null: undated. */
export type SiteDays = { first: string | null; last: string | null } | null;

/** The extent of every site: the box of their points (null when none), how many, and (with `days`) the first and last day, open when any site is. */
export interface SitesExtent {
  bbox: DataExtent;
  count: number;
  days: { first: string | null; last: string | null; open: boolean };
}

/**
 * Every site's extent: a walk over the world in the pages `params` asks for (each a cached answer of
 * the provider), folding where each site is and, with `daysOf`, when.
 */
export async function walkExtent<S, B extends SitesBoxParams>(
  deps: DataDeps,
  provider: OperationalProvider,
  part: AnyPart<S, unknown, B>,
  params: (after: string | null) => B,
  daysOf: (site: S) => SiteDays = () => null,
): Promise<SitesExtent> {
  let [minLon, minLat, maxLon, maxLat] = [Infinity, Infinity, -Infinity, -Infinity];
  const days = { first: null as string | null, last: null as string | null, open: false };
  let count = 0;
  let after: string | null = null;
  do {
    const page: SitesPage<S> = await boxPage(deps, provider, part, params(after));
    for (const site of page.sites) {
      const [lon, lat] = part.where(site);
      [minLon, minLat, maxLon, maxLat] = [Math.min(minLon, lon), Math.min(minLat, lat), Math.max(maxLon, lon), Math.max(maxLat, lat)];
      const dated = daysOf(site);
      if (dated !== null) {
        if (dated.first !== null && (days.first === null || dated.first < days.first)) days.first = dated.first;
        if (dated.last === null) days.open = true;
        else if (days.last === null || dated.last > days.last) days.last = dated.last;
      }
      count += 1;
    }
    after = page.nextAfter;
  } while (after !== null);
  return { bbox: count === 0 ? null : [minLon, minLat, maxLon, maxLat], count, days };
}

/** The spatial extent of every site: the provider's own extent query where it has one, else the walk. */
export async function sitesBbox<S, B extends SitesBoxParams>(deps: DataDeps, provider: OperationalProvider, part: AnyPart<S, unknown, B>, params: (after: string | null) => B): Promise<DataExtent> {
  if (part.extent) {
    const cached = await deps.connected.ask(provider, part.extent.query, {});
    return part.extent.read(cached.answer);
  }
  return (await walkExtent(deps, provider, part, params)).bbox;
}
