/**
 * The OGC collection of any sites part (the `sites` shape, docs/decisions.md#sites): the entry the
 * `pedons`, `geochem_sites` and `stations` collections are built from. From the registry's provider of
 * the collection and its SitesPart it derives the extent (the provider's extent query, else one walk
 * over every site, shared with the temporal extent of a dated collection), a page of the box after a
 * cursor's key (one keyset query: src/shapes/sites/service.ts), and one item by key. A collection states
 * its words, its flat fields (derived from its /v1 model), and how a site becomes an item and its
 * warnings where the default page or item reads them; one whose pages or items are read otherwise
 * (several elements per page, a `datetime` walk) gives its own `query` or `one`.
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

interface SitesCollectionBase<S, P extends OperationalProvider> extends Pick<CollectionEntry, "id"> {
  /** The title and description in the words of the collection's provider (docs/decisions.md#provider-words). */
  text(provider: P): CollectionText;
  parameters?: readonly string[];
  fields: Readonly<Record<string, FlatField>>;
  /** The registry's provider the collection serves (a refusal when there is none). */
  sites(deps: DataDeps): SitesSource<S, P>;
  /** The box parameters of a page, with the role's own members (e.g. `property: null`). */
  box?(params: SitesBoxParams): SitesBoxParams;
  /** The site of a one-site answer (null: none). */
  readOne?(source: SitesSource<S, P>, answer: unknown): S | null;
  /** A sentence the description adds from the data (CollectionEntry.note). */
  note?(deps: DataDeps): Promise<string | null>;
  /** How many sites the box holds, where the provider counts cheaply (numberMatched); else null. */
  matched?(deps: DataDeps, source: SitesSource<S, P>, bbox: Bbox): Promise<number | null>;
  /** The UTC days a site is dated by: a dated collection has a temporal extent and takes `datetime` (its own `query` reads it). */
  days?(site: S): SiteDays;
}

/** How the default page and item make a site's item: needed only by a collection that leaves `query` or `one` to the default. */
interface SiteItems<S, P extends OperationalProvider> {
  /** A site as an item; `origin` makes its links absolute. */
  item(site: S, origin: string): Item;
  /** The warnings a page or item of the collection carries. */
  warnings(deps: DataDeps, source: SitesSource<S, P>, cached: CachedAnswer<unknown>, cache: CacheDescriptor): string[];
}

/** A collection reads its own pages (`query`) and items (`one`), or states how a site becomes an item and its warnings. */
export type SitesCollectionSpec<S, P extends OperationalProvider = OperationalProvider> = SitesCollectionBase<S, P> &
  (
    | ({ query: CollectionEntry["query"]; one: CollectionEntry["item"] } & Partial<SiteItems<S, P>>)
    | ({ query?: CollectionEntry["query"]; one?: CollectionEntry["item"] } & SiteItems<S, P>)
  );

/** The spec's `item` and `warnings`, which a default page or item reads (a collection without them gives both `query` and `one`). */
function siteItems<S, P extends OperationalProvider>(spec: SitesCollectionSpec<S, P>): SiteItems<S, P> {
  const { item, warnings } = spec;
  if (item === undefined || warnings === undefined) throw new Error(`Collection ${spec.id}: the default page and item need 'item' and 'warnings'.`);
  return { item, warnings };
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
    ...(spec.note ? { note: spec.note } : {}),
    geometry: ["point"],
    async extent(deps) {
      if (spec.days) return (await extentWalk(deps)).bbox;
      const source = spec.sites(deps);
      return sitesBbox(deps, source.provider, source.part, (after) => params({ bbox: WORLD, after, limit: WALK_PAGE }));
    },
    // A default is built only where the spec leaves it: `siteItems` refuses a spec without what it reads when the collection is made.
    query:
      spec.query ??
      (({ item, warnings }): CollectionEntry["query"] => (deps, bbox) => {
        const source = spec.sites(deps);
        return {
          binding: { provider: source.provider.id },
          async page(after, limit) {
            if (after !== null && source.part.key.parse(after) === null) throw new ValidationError("Query parameter 'cursor' is not a cursor Loam made; start again without it.");
            const [page, matched] = await Promise.all([boxPage(deps, source.provider, source.part, params({ bbox, after, limit })), spec.matched ? spec.matched(deps, source, bbox) : null]);
            const cache = describeCache(page.cached, deps.cacheTtlSeconds);
            return { features: (origin) => page.sites.map((s) => item(s, origin)), nextAfter: page.nextAfter, cache, warnings: () => warnings(deps, source, page.cached, cache), stamp: "", matched };
          },
        };
      })(siteItems(spec)),
    item:
      spec.one ??
      (({ item, warnings }): CollectionEntry["item"] => async (deps, id) => {
        const source = spec.sites(deps);
        const key = source.part.key.parse(id);
        if (key === null || !spec.readOne) return null;
        const cached = await oneSite(deps, source.provider, source.part, key);
        const site = cached === null ? null : spec.readOne(source, cached.answer);
        if (cached === null || site === null) return null;
        const cache = describeCache(cached, deps.cacheTtlSeconds);
        return { feature: (origin) => item(site, origin), cache, warnings: () => warnings(deps, source, cached, cache), stamp: "" };
      })(siteItems(spec)),
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
