/** The `sites` shape's part: located records found by box or nearest a point, one by key (pedons, sample sites and stations each extend it). Part of the provider contract (./provider.ts, docs/architecture.md#providers). */
import type { QueryKind } from "../upstream/transport";
import type { DataExtent, PageEnd } from "./base";

// ---- sites: located records found by box or nearest a point (the `sites` shape) -------------------
// (docs/architecture.md#shapes; pedons, sample sites and stations each extend SitesPart)

/** A page of the sites in a box: key order after `after` (the previous page's last key; null: the first page), at most `limit` + 1 (the extra one says more exist). */
export interface SitesBoxParams {
  bbox: [number, number, number, number];
  after: string | null;
  limit: number;
}

/** The sites nearest a point, nearest first. */
export interface SitesNearParams {
  latitude: number;
  longitude: number;
  limit: number;
}

/**
 * The `sites` shape: located records with a key syntax, found by box (any box, paged by a keyset cursor on
 * the key) or nearest a point, and one by its key. `S` is one site as the role reads it, `A` the answers,
 * `K` the key as a query takes it, `B`/`N` the box and nearest parameters (a role may add its own members),
 * `O` the one-site parameters. The generic service (src/shapes/sites/service.ts) pages, walks, finds
 * the nearest and one site, and measures the extent through these members only.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface SitesPart<S, A = any, K = string, B extends SitesBoxParams = SitesBoxParams, N extends SitesNearParams = SitesNearParams, O = any> {
  /**
   * Its key syntax: a path segment read as a key (null when malformed), the syntax in words for the 422,
   * and `example`, a key the source holds, for the routes' examples (docs/decisions.md#provider-words).
   */
  key: { parse(raw: string): K | null; syntax: string; example: string };
  inBox: QueryKind<B, A>;
  /** Absent when the provider does not find sites by distance. */
  nearest?: QueryKind<N, A>;
  /** One site: its query, the query's parameters for a key, and whether an answer holds the site (none: the caller's 404). */
  one: { query: QueryKind<O, A>; params(key: K): O; found(answer: A): boolean };
  /** The sites of a box or nearest answer asked with `params`, at most `limit` in its order, and where the page ends (its last key). */
  page(answer: A, limit: number, params: B | N): { sites: S[] } & PageEnd;
  /** Where a site is: [longitude, latitude]. */
  where(site: S): [number, number];
  /** The extent of every located site, where the provider has a query for it; absent: the service walks every site. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  extent?: { query: QueryKind<Record<string, never>, any>; read(answer: any): DataExtent };
}
