/**
 * The OGC collection of any sites part (the `sites` shape, docs/decisions.md#sites): the entry the
 * `pedons`, `geochem_sites` and `stations` collections are built from. From the registry's provider of
 * the collection and its SitesPart it derives the extent (the provider's extent query, else one walk
 * over every site, shared with the temporal extent of a dated collection), a page of the box after a
 * cursor's key (one keyset query: src/shapes/sites/service.ts), and one item by key. A collection states
 * its words, its flat fields (derived from its /v1 model), how a site becomes an item and its warnings;
 * one whose pages or items are read otherwise (several elements per page, a `datetime` walk) gives
 * its own `query` or `item`.
 */
import { describeCache, type CacheDescriptor, type DataDeps } from "../answer";
import { ValidationError } from "../errors";
import { boxPage, oneSite, sitesBbox, walkExtent, WORLD, type SiteDays, type SitesExtent } from "../shapes/sites/service";
import type { CachedAnswer } from "../upstream/cache";
import type { OperationalProvider, SitesBoxParams, SitesPart } from "../providers/provider";
import type { Bbox } from "../domain/bbox";
import type { CollectionEntry, CollectionText, Item } from "./entries";
import type { FlatField } from "./flat-fields";

/** The providers' largest page: a walk over every site (the extent, a box) reads pages this size. */
export const WALK_PAGE = 1000;

/** A collection's provider and its sites part. */
export interface SitesSource<S, P extends OperationalProvider = OperationalProvider> {
  provider: P;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  part: SitesPart<S, any, any, any, any, any>;
}

export interface SitesCollectionSpec<S, P extends OperationalProvider = OperationalProvider> extends Pick<CollectionEntry, "id"> {
  /** The title and description in the words of the collection's provider (docs/decisions.md#provider-words). */
  text(provider: P): CollectionText;
  parameters?: readonly string[];
  fields: Readonly<Record<string, FlatField>>;
  /** The registry's provider the collection serves (a refusal when there is none). */
  sites(deps: DataDeps): SitesSource<S, P>;
  /** The box parameters of a page, with the role's own members (e.g. `property: null`). */
  box?(params: SitesBoxParams): SitesBoxParams;
  /** A site as an item; `origin` makes its links absolute. */
  item(site: S, origin: string): Item;
  /** The warnings a page or item of the collection carries. */
  warnings(deps: DataDeps, source: SitesSource<S, P>, cached: CachedAnswer<unknown>, cache: CacheDescriptor): string[];
  /** The site of a one-site answer (null: none). */
  readOne?(source: SitesSource<S, P>, answer: unknown): S | null;
  /** How many sites the box holds, where the provider counts cheaply (numberMatched); else null. */
  matched?(deps: DataDeps, source: SitesSource<S, P>, bbox: Bbox): Promise<number | null>;
  /** The UTC days a site is dated by: a dated collection has a temporal extent and takes `datetime` (its own `query` reads it). */
  days?(site: S): SiteDays;
  query?: CollectionEntry["query"];
  one?: CollectionEntry["item"];
}

export function sitesCollection<S, P extends OperationalProvider = OperationalProvider>(spec: SitesCollectionSpec<S, P>): CollectionEntry {
  const params = (base: SitesBoxParams) => (spec.box ? spec.box(base) : base);
  const walkOf = (deps: DataDeps) => {
    const source = spec.sites(deps);
    return walkExtent(deps, source.provider, source.part, (after) => params({ bbox: WORLD, after, limit: WALK_PAGE }), spec.days);
  };
  // `extent` and `interval` of one collection document are asked together: one walk, not two. Kept only while it runs.
  const walking = new WeakMap<DataDeps, Promise<SitesExtent>>();
  const extentWalk = (deps: DataDeps) => {
    let walk = walking.get(deps);
    if (walk === undefined) {
      walk = walkOf(deps).finally(() => walking.delete(deps));
      walking.set(deps, walk);
    }
    return walk;
  };
  const entry: CollectionEntry = {
    id: spec.id,
    text: (deps) => spec.text(spec.sites(deps).provider),
    parameters: spec.parameters ?? [],
    fields: spec.fields,
    geometry: ["point"],
    async extent(deps) {
      if (spec.days) return (await extentWalk(deps)).bbox;
      const source = spec.sites(deps);
      return sitesBbox(deps, source.provider, source.part, (after) => params({ bbox: WORLD, after, limit: WALK_PAGE }));
    },
    query:
      spec.query ??
      ((deps, bbox) => {
        const source = spec.sites(deps);
        return {
          binding: { provider: source.provider.id },
          async page(after, limit) {
            if (after !== null && source.part.key.parse(after) === null) throw new ValidationError("Query parameter 'cursor' is not a cursor Loam made; start again without it.");
            const [page, matched] = await Promise.all([boxPage(deps, source.provider, source.part, params({ bbox, after, limit })), spec.matched ? spec.matched(deps, source, bbox) : null]);
            const cache = describeCache(page.cached, deps.cacheTtlSeconds);
            return { features: (origin) => page.sites.map((s) => spec.item(s, origin)), nextAfter: page.nextAfter, cache, warnings: () => spec.warnings(deps, source, page.cached, cache), stamp: "", matched };
          },
        };
      }),
    item:
      spec.one ??
      (async (deps, id) => {
        const source = spec.sites(deps);
        const key = source.part.key.parse(id);
        if (key === null || !spec.readOne) return null;
        const cached = await oneSite(deps, source.provider, source.part, key);
        const site = cached === null ? null : spec.readOne(source, cached.answer);
        if (cached === null || site === null) return null;
        const cache = describeCache(cached, deps.cacheTtlSeconds);
        return { feature: (origin) => spec.item(site, origin), cache, warnings: () => spec.warnings(deps, source, cached, cache), stamp: "" };
      }),
  };
  if (spec.days) {
    entry.interval = async (deps) => {
      const { count, days } = await extentWalk(deps);
      // Dates are days: from the first day's start to the last day's end, open while any site is.
      if (count === 0 || days.first === null) return null;
      return [`${days.first.slice(0, 10)}T00:00:00Z`, days.open || days.last === null ? null : `${days.last.slice(0, 10)}T23:59:59Z`];
    };
  }
  return entry;
}
