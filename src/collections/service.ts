/**
 * OGC API - Features documents (docs/decisions.md#ogc-api-features): the landing page, the
 * conformance declaration, collections with extents computed from the data, and items pages as
 * DataAnswers (cached bodies, entity tags, 304) with self, collection and next links. Links are
 * absolute (GDAL and OWSLib follow them as given), made from the request's own origin, which is
 * therefore part of each answer's key. Knows nothing of HTTP beyond the URL it is given.
 */
import { cacheMetadata, type DataAnswer, type DataDeps } from "../answer";
import { BadRequestError, NotFoundError, UpstreamBudgetError, UpstreamError, UpstreamTimeoutError, UpstreamUnreachableError } from "../errors";
import { decimal } from "../decimal";
import { clip } from "../errors";
import type { Bbox } from "../domain/bbox";
import { parseDatetime } from "../domain/time-interval";
import type { TimeRange } from "../domain/time-range";
import type { CollectionEntry, ItemsPage } from "./entries";
import { collectionsOf } from "./table";
import { CRS84, DEFAULT_ITEMS_LIMIT, MAX_ITEMS_LIMIT } from "./model";

const GEOJSON = "application/geo+json";
const JSON_TYPE = "application/json";
export const SCHEMA_JSON = "application/schema+json";
const QUERYABLES_REL = "http://www.opengis.net/def/rel/ogc/1.0/queryables";
/** The temporal reference system of OGC 17-069r4 (the Gregorian calendar, ISO 8601). */
const GREGORIAN = "http://www.opengis.net/def/uom/ISO-8601/0/Gregorian";

/**
 * Conformance classes claimed: only those Loam implements and its tests exercise. OpenAPI 3.0 is not
 * claimed: /openapi.json is an OpenAPI 3.1 document.
 */
export const CONFORMANCE = [
  "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core",
  "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson",
];

export function collectionOf(deps: DataDeps, id: string): CollectionEntry {
  const entries = collectionsOf(deps.registry);
  const entry = entries.find((c) => c.id === id);
  if (!entry) throw new NotFoundError(`No collection '${clip(id)}'; GET /ogc/collections lists ${entries.map((c) => c.id).join(", ")}.`);
  return entry;
}

export function landingPage(origin: string) {
  return {
    title: "Loam soil-data API: OGC API - Features",
    // The collections' sources are named by their own titles (GET /ogc/collections), not here (docs/decisions.md#provider-words).
    description: "Mapped soil-survey map-unit polygons (with map-unit summaries as fields), laboratory pedons, soil geochemistry sample sites (with element results as fields) and soil-climate sensor stations as OGC API - Features collections, for QGIS, GDAL/OGR and OWSLib; GET /ogc/collections names the source of each.",
    links: [
      { href: `${origin}/ogc`, rel: "self", type: JSON_TYPE, title: "This document" },
      { href: `${origin}/openapi.json`, rel: "service-desc", type: "application/vnd.oai.openapi+json;version=3.1", title: "The API definition (OpenAPI 3.1)" },
      { href: `${origin}/docs`, rel: "service-doc", type: "text/html", title: "The API documentation" },
      { href: `${origin}/ogc/conformance`, rel: "conformance", type: JSON_TYPE, title: "Conformance classes" },
      { href: `${origin}/ogc/collections`, rel: "data", type: JSON_TYPE, title: "The collections" },
    ],
  };
}

const UPSTREAM_FAILURES = [UpstreamError, UpstreamTimeoutError, UpstreamUnreachableError, UpstreamBudgetError];

/**
 * A collection's document. In the list (`listed`), a collection whose source does not answer keeps its
 * place with no extent: one source down (e.g. the DS 801 file in live mode) must not hide the others
 * from a GIS client; its own document (and its items) still answer with the upstream error.
 */
async function describe(deps: DataDeps, entry: CollectionEntry, origin: string, listed = false) {
  let extent: Awaited<ReturnType<CollectionEntry["extent"]>> = null;
  let interval: [string, string | null] | null = null;
  let unknown = false;
  let note: string | null = null;
  try {
    [extent, interval, note] = await Promise.all([entry.extent(deps), entry.interval?.(deps) ?? null, entry.note?.(deps) ?? null]);
  } catch (error) {
    if (!listed || !UPSTREAM_FAILURES.some((kind) => error instanceof kind)) throw error;
    unknown = true;
  }
  const { title, description } = entry.text(deps);
  const base = `${origin}/ogc/collections/${entry.id}`;
  const fields = Object.entries(entry.fields).map(([name, field]) => `${name} (${field.type})`).join(", ");
  return {
    id: entry.id,
    title,
    description: `${description}${note ? ` ${note}` : ""} Fields: ${fields}.${unknown ? " Extent unknown: its source did not answer just now." : ""}`,
    itemType: "feature" as const,
    crs: [CRS84],
    extent: extent === null ? null : { spatial: { bbox: [[...extent]], crs: CRS84 }, ...(interval ? { temporal: { interval: [[...interval]], trs: GREGORIAN } } : {}) },
    links: [
      { href: base, rel: "self", type: JSON_TYPE, title },
      { href: `${base}/items`, rel: "items", type: GEOJSON, title: `${title} (items)` },
      { href: `${base}/queryables`, rel: QUERYABLES_REL, type: SCHEMA_JSON, title: `${title} (queryables)` },
    ],
  };
}

/**
 * The collection's queryables (OGC API - Features Part 3, OGC 19-079r2): a JSON Schema of its items'
 * properties, from the fields the entry derives from its model, and its geometry.
 */
export function queryables(deps: DataDeps, entry: CollectionEntry, origin: string) {
  const geometry = entry.geometry.map((kind) => ({ format: `geometry-${kind}` }));
  const properties: Record<string, Record<string, unknown>> = { geometry: geometry.length === 1 ? geometry[0]! : { oneOf: geometry } };
  for (const [name, field] of Object.entries(entry.fields)) {
    properties[name] = {
      title: name,
      type: field.nullable ? [field.type, "null"] : field.type,
      ...(field.format ? { format: field.format } : {}),
      ...(field.description ? { description: field.description } : {}),
    };
  }
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema" as const,
    $id: `${origin}/ogc/collections/${entry.id}/queryables`,
    type: "object" as const,
    title: entry.text(deps).title,
    properties,
  };
}

export async function collections(deps: DataDeps, origin: string) {
  return {
    links: [{ href: `${origin}/ogc/collections`, rel: "self", type: JSON_TYPE, title: "The collections" }],
    collections: await Promise.all(collectionsOf(deps.registry).map((entry) => describe(deps, entry, origin, true))),
  };
}

export const collection = (deps: DataDeps, entry: CollectionEntry, origin: string) => describe(deps, entry, origin);

/** The OGC `bbox`: four numbers in CRS84 (OGC 17-069r4 /req/core/fc-bbox-definition); six (3D) and other CRSs are 400s. */
export function parseItemsBbox(raw: string, crs: string): Bbox {
  if (crs !== CRS84) throw new BadRequestError(`Query parameter 'bbox-crs' must be ${CRS84} (the only CRS these collections serve); got '${clip(crs)}'.`);
  const items = raw.split(",");
  if (items.length === 6) throw new BadRequestError("Query parameter 'bbox' has six numbers (a 3D box); these collections are 2D: give min_lon,min_lat,max_lon,max_lat.");
  if (items.length !== 4) throw new BadRequestError(`Query parameter 'bbox' must be four comma-separated numbers min_lon,min_lat,max_lon,max_lat; got ${items.length} items.`);
  const box = items.map((item, i) => {
    const value = decimal(item);
    if (value === null) throw new BadRequestError(`Query parameter 'bbox' item ${i + 1} must be a number; got '${clip(item)}'.`);
    return value;
  }) as Bbox;
  const [w, s, e, n] = box;
  if ([w, e].some((v) => v < -180 || v > 180) || [s, n].some((v) => v < -90 || v > 90)) {
    throw new BadRequestError("Query parameter 'bbox' must lie inside WGS84: longitudes from -180 to 180, latitudes from -90 to 90.");
  }
  if (s > n) throw new BadRequestError(`Query parameter 'bbox' has its southern edge (${s}) north of its northern edge (${n}).`);
  if (w > e) throw new BadRequestError("Query parameter 'bbox' crosses the antimeridian (min_lon > max_lon); that is not supported: ask for the two sides separately.");
  return box;
}

/** The OGC `limit` (an integer from 1, checked by the query reader): a larger one than the collection pages is served as that many. */
export function parseItemsLimit(limit: number): number {
  return Math.min(limit, MAX_ITEMS_LIMIT);
}

export { DEFAULT_ITEMS_LIMIT };

/** The OGC `datetime` (src/domain/time-interval.ts); only a collection with a temporal extent takes one (400 otherwise, naming those that do). */
export function parseItemsDatetime(deps: DataDeps, entry: CollectionEntry, raw: string): TimeRange | null {
  const time = parseDatetime(raw);
  if (time !== null && !entry.interval) {
    const dated = collectionsOf(deps.registry).filter((c) => c.interval).map((c) => c.id);
    throw new BadRequestError(`The ${entry.id} collection has no temporal extent, so it takes no 'datetime'; ${dated.join(", ")} ${dated.length === 1 ? "does" : "do"}.`);
  }
  return time;
}

/** An items page as a DataAnswer: GeoJSON with links, numberReturned, timeStamp, cache and warnings. */
export function itemsAnswer(deps: DataDeps, entry: CollectionEntry, page: ItemsPage, self: string, next: string | null, origin: string): DataAnswer<unknown> {
  return {
    key: `ogc-items|${self}|${page.stamp}`,
    cache: page.cache,
    body: () => {
      const features = page.features(origin);
      return {
        type: "FeatureCollection",
        // The page's data are those read at the cache entry's retrieval time (a cached body stays one body).
        timeStamp: new Date(page.cache.storedAt).toISOString(),
        ...(page.matched === null ? {} : { numberMatched: page.matched }),
        numberReturned: features.length,
        links: [
          { href: self, rel: "self", type: GEOJSON, title: "This page" },
          { href: `${origin}/ogc/collections/${entry.id}`, rel: "collection", type: JSON_TYPE, title: entry.text(deps).title },
          ...(next === null ? [] : [{ href: next, rel: "next", type: GEOJSON, title: "The next page" }]),
        ],
        cache: cacheMetadata(page.cache, deps.now()),
        warnings: page.warnings(),
        features,
      };
    },
  };
}

export function itemAnswer(deps: DataDeps, entry: CollectionEntry, found: NonNullable<Awaited<ReturnType<CollectionEntry["item"]>>>, self: string, origin: string): DataAnswer<unknown> {
  return {
    key: `ogc-item|${self}|${found.stamp}`,
    cache: found.cache,
    body: () => ({
      ...found.feature(origin),
      links: [
        { href: self, rel: "self", type: GEOJSON, title: "This feature" },
        { href: `${origin}/ogc/collections/${entry.id}`, rel: "collection", type: JSON_TYPE, title: entry.text(deps).title },
      ],
      cache: cacheMetadata(found.cache, deps.now()),
      warnings: found.warnings(),
    }),
  };
}
