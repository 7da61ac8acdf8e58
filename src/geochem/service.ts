/**
 * Geochemistry sample sites (docs/decisions.md#geochem): effective query → the sample-site provider's
 * answer (cache → transport) → features or one site with its element results, with warnings. Works
 * with any provider of role `sample_sites`; knows nothing of HTTP (it returns DataAnswers).
 *
 * `geochemSitesPage` is the same walk for the OGC API collection `geochem_sites`: sites in a box
 * after a keyset position, with flat typed properties.
 */
import { NotFoundError, ValidationError } from "../errors";
import { defaultProvider } from "../answer/providers";
import { cacheMetadata, describeCache, sourceWarnings, type CacheDescriptor, type DataAnswer, type DataDeps } from "../answer";
import { boxCursors, siteKey, boxPage, boxPages, nearestSites, oneSite } from "../shapes/sites/service";
import type { CachedAnswer } from "../upstream/cache";
import type { SampleSiteProvider, SiteBoxParams, SiteReading } from "../providers/provider";
import type { SourceDescription } from "../upstream/transport";
import { VERSION } from "../version";
import { resolvePropertyId } from "../catalog/properties";
import { clip } from "../errors";
import { MAX_SITE_LIMIT, RESULT_STATUSES, type GeochemSiteCollection, type GeochemSiteFeature, type GeochemSiteResponse } from "./model";
import type { Static } from "elysia";
import type { RawGeochemSiteResponse } from "./model";
import type { Bbox } from "../domain/bbox";

export interface EffectiveSitesQuery {
  bbox: Bbox | null;
  /** [latitude, longitude] */
  near: [number, number] | null;
  limit: number;
  property: string | null;
  cursor: string | null;
}

const NO_SAMPLE_NOTE = "'N.S.' (no sample: not collected or lost in shipping) has no value.";
const CENSORED_NOTE = "A censored result ('<1': below the reporting limit) has value null and its limit in reporting_limit; the limit is not the value.";

/** One element of the provider: an id or alias it serves, else a 422 naming it. */
export function element(provider: SampleSiteProvider, name: string, parameter: string): string {
  const id = resolvePropertyId(name);
  if (id === undefined) throw new ValidationError(`Query parameter '${parameter}' names an unknown property '${clip(name)}'; GET /v1/properties lists the ids and their aliases.`);
  if (!provider.sites.properties.includes(id)) {
    throw new ValidationError(`Query parameter '${parameter}' names '${clip(name)}' (${id}), which ${provider.id} does not report; it reports the elements ${provider.sites.properties.join(", ")}.`);
  }
  return id;
}

/** Comma-separated elements, in the provider's order; empty: every element. */
export function elements(provider: SampleSiteProvider, raw: string): string[] {
  if (raw.trim() === "") return [...provider.sites.properties];
  const asked = new Set<string>();
  for (const item of raw.split(",")) {
    const name = item.trim();
    if (name === "") throw new ValidationError("Query parameter 'properties' has an empty item; give comma-separated elements such as 'arsenic,lead'.");
    asked.add(element(provider, name, "properties"));
  }
  return provider.sites.properties.filter((id) => asked.has(id));
}

/** The site id of a path segment, or a 422 saying what one looks like. */
export const siteIdOf = (provider: SampleSiteProvider, raw: string): number => siteKey(provider, provider.sites, raw, "site_id");

/** The cursors of a walk over a box (docs/decisions.md#cursors): limit is not part of their binding. */
const cursorsOf = (provider: SampleSiteProvider, bbox: Bbox, property: string | null) =>
  boxCursors(provider.sites, { collection: "geochem_sites", provider: provider.id, bbox, property });

/**
 * Warnings from where the answer came from, besides the provider's own: whether it is stale. The
 * shared snapshot note speaks of USDA-NRCS exports; the provider states its own snapshot note instead.
 */
function sharedWarnings(source: SourceDescription, cache: ReturnType<typeof describeCache>): string[] {
  return sourceWarnings(source.kind === "snapshot" ? { kind: "geochem", location: source.location } : source, cache);
}

function feature(reading: SiteReading, property: string | null): GeochemSiteFeature {
  const { site } = reading;
  const properties: GeochemSiteFeature["properties"] = {
    site_id: site.site_id,
    lab_id: site.lab_id,
    state: site.state,
    collection_date: site.collection_date,
    land_cover_primary: site.land_cover_primary,
    land_cover_secondary: site.land_cover_secondary,
    depth: site.depth,
    representative_of_bbox: false,
  };
  if (reading.distanceKm !== undefined) properties.distance_km = Math.round(reading.distanceKm * 1000) / 1000;
  if (property !== null) {
    const o = reading.observations[0];
    properties.property = property;
    properties.value = o ? o.value : null;
    properties.reported_value = o ? o.reported_value : "N.S.";
    properties.value_qualifier = o ? o.value_qualifier : null;
    properties.result_status = resultStatus(o);
    properties.reporting_limit = o ? o.reporting_limit : null;
    properties.unit = o ? o.unit : (reading.units[property] ?? "");
  }
  return { type: "Feature", id: site.site_id, geometry: { type: "Point", coordinates: [site.longitude, site.latitude] }, properties };
}

export interface SitesAnswer {
  answer: DataAnswer<GeochemSiteCollection>;
  /** The path of the next page, when the page is truncated (the route's Link header). */
  next: string | null;
}

/**
 * The sites in a box (a page after the cursor's position) or nearest a point. `nextPath` makes the
 * path of the next page from its cursor (the route keeps the request's other parameters).
 */
export async function geochemSites(
  deps: DataDeps,
  provider: SampleSiteProvider,
  query: EffectiveSitesQuery,
  nextPath: (cursor: string) => string,
  whole = false,
): Promise<SitesAnswer> {
  let found: { cached: CachedAnswer<unknown>; sites: SiteReading[]; truncated: boolean; cache: CacheDescriptor };
  let after: string | null = null;
  let next: string | null = null;
  if (query.bbox) {
    const { bbox, property } = query;
    const cursors = cursorsOf(provider, bbox, property);
    after = cursors.positionOf(query.cursor);
    // A CSV holds every page from the cursor on (docs/decisions.md#csv-whole).
    const paging = whole ? { after, limit: MAX_SITE_LIMIT, whole, rows: "rows (sites)" } : { after, limit: query.limit, whole };
    const read = await boxPages(deps, provider, provider.sites, (position, limit) => ({ bbox, after: position, limit, property }), paging);
    found = { cached: read.pages[0]!.cached, sites: read.sites, truncated: read.truncated, cache: read.cache };
    if (read.nextAfter !== null) next = nextPath(cursors.cursorAfter(read.nextAfter));
  } else {
    const [latitude, longitude] = query.near!;
    const near = await nearestSites(deps, provider, provider.sites, { latitude, longitude, limit: query.limit, property: query.property });
    found = { ...near, truncated: false, cache: describeCache(near.cached, deps.cacheTtlSeconds) };
  }
  const { cached, sites: page, truncated, cache } = found;
  const source = deps.connected.sourceOf(provider);
  return {
    next,
    answer: {
      key: `geochem-sites|${provider.id}|${JSON.stringify(query)}${whole ? "|whole" : ""}`,
      cache,
      body: () => {
        const warnings = [...provider.sites.warnings(cached.answer, source)];
        if (truncated) warnings.push(`More sites lie in the box: this page holds ${query.limit} sites in site-id order; follow 'next' (or the Link header) for the next page.`);
        if (query.bbox && page.length === 0) {
          warnings.push(`No ${provider.shortName} site lies in the box${after === null ? "" : " after the cursor's position"}; it sampled ${provider.sites.scope.area} only.`);
        }
        if (query.property !== null) {
          if (page.some((r) => r.noSample.length > 0)) warnings.push(`Sites with no sample for '${query.property}' have reported_value 'N.S.': ${NO_SAMPLE_NOTE}`);
          if (page.some((r) => r.observations[0]?.value_qualifier)) warnings.push(CENSORED_NOTE);
        }
        warnings.push(...sharedWarnings(source, cache));
        return {
          type: "FeatureCollection" as const,
          provider: provider.id,
          query: { bbox: query.bbox ? [...query.bbox] : null, near: query.near ? [...query.near] : null, limit: query.limit, property: query.property, cursor: query.cursor },
          cache: cacheMetadata(cache, deps.now()),
          truncated,
          next,
          warnings,
          features: page.map((r) => feature(r, query.property)),
        };
      },
    },
  };
}

/** The provider's answer for one site; 404 when it has none. */
async function siteAnswer(deps: DataDeps, provider: SampleSiteProvider, siteId: number) {
  const cached = await oneSite(deps, provider, provider.sites, siteId);
  if (cached === null) throw new NotFoundError(`No geochemistry sample site ${siteId}: ${provider.shortName} has no such SiteID (GET /v1/geochem/sites lists them).`, provider.id);
  return { cached, source: deps.connected.sourceOf(provider), cache: describeCache(cached, deps.cacheTtlSeconds) };
}

/** One site with the results of `properties` (served ids, in the provider's order). */
export async function geochemSite(deps: DataDeps, provider: SampleSiteProvider, siteId: number, properties: readonly string[]): Promise<DataAnswer<GeochemSiteResponse>> {
  const { cached, source, cache } = await siteAnswer(deps, provider, siteId);
  return {
    key: `geochem-site|${provider.id}|${siteId}|${properties.join(",")}`,
    cache,
    body: () => {
      const [reading] = provider.sites.read(cached.answer, properties);
      const { site, observations, noSample } = reading!;
      const warnings = [...provider.sites.warnings(cached.answer, source)];
      if (site.lab_id === null) warnings.push(`Site ${site.site_id} has no sample (N.S.: not collected or lost in shipping); it has no element results.`);
      for (const id of noSample) warnings.push(`No result for '${id}' at site ${site.site_id}: the file reports N.S. (no sample), so there is no observation of it.`);
      if (observations.some((o) => o.value_qualifier !== null)) warnings.push(CENSORED_NOTE);
      warnings.push(provider.sites.methodNote, ...sharedWarnings(source, cache));
      return {
        api_version: VERSION,
        status: "experimental" as const,
        provider: provider.id,
        data_kind: "observed" as const,
        query: { site_id: siteId, properties: [...properties] },
        site,
        observations,
        source: provider.sites.source(cached.answer, source),
        cache: cacheMetadata(cache, deps.now()),
        warnings,
      };
    },
  };
}

export async function rawGeochemSite(deps: DataDeps, provider: SampleSiteProvider, siteId: number): Promise<DataAnswer<Static<typeof RawGeochemSiteResponse>>> {
  const { cached, source, cache } = await siteAnswer(deps, provider, siteId);
  return {
    key: `raw-geochem-site|${provider.id}|${siteId}`,
    cache,
    body: () => ({
      provider: provider.id,
      status: "experimental" as const,
      query: { site_id: siteId },
      retrieved_at: provider.sites.source(cached.answer, source).retrieved_at,
      cache: cacheMetadata(cache, deps.now()),
      upstream_response: provider.sites.raw(cached.answer),
      warnings: [
        "Raw upstream row: not normalized, censored results not interpreted, no property ids, and its layout is not promised to stay stable. Use /v1/geochem/sites/{site_id} for normalized values.",
        ...provider.sites.rawNotes,
        ...(source.kind === "snapshot" ? ["In snapshot mode the row is read from the snapshot's copy of the file, cell for cell."] : []),
        ...sharedWarnings(source, cache),
      ],
    }),
  };
}

// ---- for other features (the OGC API collection geochem_sites) -----------------------------------

/** A site as GIS clients keep it: flat strings and numbers only. */
export interface FlatSiteFeature {
  id: number;
  /** [longitude, latitude] */
  coordinates: [number, number];
  properties: {
    site_id: number;
    lab_id: string | null;
    state: string | null;
    collection_date: string | null;
    land_cover_primary: string | null;
    land_cover_secondary: string | null;
    depth_top_cm: number;
    depth_bottom_cm: number;
    /** With a property: the element asked for and its result, flat. */
    property?: string;
    value?: number | null;
    reported_value?: string;
    value_qualifier?: string | null;
    result_status?: (typeof RESULT_STATUSES)[number];
    reporting_limit?: number | null;
    unit?: string;
  };
}

export interface FlatSitesPage {
  features: FlatSiteFeature[];
  /** The keyset position of the next page (the last site id of this one); null on the last page. */
  nextAfter: number | null;
  /** How many sites the query matches, every page together; null where the provider does not count. */
  matched: number | null;
  /** When the file behind the page was read. */
  retrievedAt: string;
  /** The cache entry the page was read from (for a caller that sends it as a cached answer). */
  cache: CacheDescriptor;
  warnings: string[];
}

/**
 * A page of the sample sites in a box, in site-id order after `after` (a site id, exclusive; null for
 * the first page), at most `limit` (1 to 1000), with flat typed properties: for a caller that keeps its
 * own cursors (the OGC API collection `geochem_sites`). `property` (a served id) adds its result.
 */
export async function geochemSitesPage(
  deps: DataDeps,
  page: { bbox: Bbox; after: number | null; limit: number; property?: string | null; days?: SiteBoxParams["days"] },
  provider: SampleSiteProvider = defaultProvider(deps.registry, "sample_sites"),
): Promise<FlatSitesPage> {
  // The caller validates its own parameters; these bounds keep any caller's work bounded.
  if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > MAX_SITE_LIMIT) throw new ValidationError(`A page of sites holds 1 to ${MAX_SITE_LIMIT} sites; got ${page.limit}.`);
  const property = page.property ?? null;
  if (property !== null && !provider.sites.properties.includes(property)) throw new ValidationError(`'${property}' is not an element ${provider.id} reports.`);
  const { cached, sites, nextAfter } = await boxPage(deps, provider, provider.sites, {
    bbox: page.bbox,
    after: page.after === null ? null : String(page.after),
    limit: page.limit,
    property,
    ...(page.days ? { days: page.days } : {}),
  });
  const source = deps.connected.sourceOf(provider);
  const cache = describeCache(cached, deps.cacheTtlSeconds);
  return {
    features: sites.map((r) => flatFeature(r, property)),
    nextAfter: nextAfter === null ? null : Number(nextAfter),
    matched: provider.sites.matched(cached.answer),
    retrievedAt: provider.sites.source(cached.answer, source).retrieved_at,
    cache,
    // As on /v1/geochem/sites: the provider's warnings, then whether the answer is stale.
    warnings: [...provider.sites.warnings(cached.answer, source), ...sharedWarnings(source, cache)],
  };
}

function flatFeature(reading: SiteReading, property: string | null): FlatSiteFeature {
  const { depth, ...rest } = feature(reading, property).properties;
  const { representative_of_bbox: _, ...flat } = rest;
  const { site } = reading;
  return { id: site.site_id, coordinates: [site.longitude, site.latitude], properties: { ...flat, depth_top_cm: depth.top_cm, depth_bottom_cm: depth.bottom_cm } };
}

/** An element's result at a site, flat: the value (null when censored or N.S.), the file's cell, the unit, and which of the three it is. */
export interface FlatElementResult {
  value: number | null;
  reported_value: string;
  unit: string;
  status: (typeof RESULT_STATUSES)[number];
}

/** What a site's result for one element is: no observation is the file's N.S. (no sample), a qualifier a censored result. */
function resultStatus(o: { value_qualifier: string | null } | undefined): (typeof RESULT_STATUSES)[number] {
  return o === undefined ? "not_sampled" : o.value_qualifier !== null ? "censored" : "measured";
}

/**
 * One site with flat typed properties and the results of `properties` (served ids) by element, or
 * null when the provider has no such site (for the OGC API item geochem_sites/items/{site_id}).
 */
export async function geochemSiteFlat(
  deps: DataDeps,
  siteId: number,
  properties: readonly string[],
  provider: SampleSiteProvider = defaultProvider(deps.registry, "sample_sites"),
): Promise<{ feature: FlatSiteFeature; results: Record<string, FlatElementResult>; cache: CacheDescriptor; warnings: string[] } | null> {
  const cached = await oneSite(deps, provider, provider.sites, siteId);
  if (cached === null) return null;
  const [reading] = provider.sites.read(cached.answer, properties);
  const results: Record<string, FlatElementResult> = {};
  for (const id of properties) {
    const o = reading!.observations.find((obs) => obs.property.id === id);
    // N.S. (no sample) has no observation: its cell is N.S. and it has no value.
    results[id] = o ? { value: o.value, reported_value: o.reported_value, unit: o.unit, status: resultStatus(o) } : { value: null, reported_value: "N.S.", unit: reading!.units[id] ?? "", status: resultStatus(o) };
  }
  const source = deps.connected.sourceOf(provider);
  const cache = describeCache(cached, deps.cacheTtlSeconds);
  return { feature: flatFeature(reading!, null), results, cache, warnings: [...provider.sites.warnings(cached.answer, source), ...sharedWarnings(source, cache)] };
}
