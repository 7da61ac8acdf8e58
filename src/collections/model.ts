/**
 * Models of OGC API - Features Part 1 (OGC 17-069r4) as Loam serves it at /ogc: landing page,
 * conformance, collections, items and one item (docs/decisions.md#ogc-api-features). Items are
 * GeoJSON with flat properties (strings, numbers, null), plus Loam's foreign members cache and warnings.
 */
import { t } from "elysia";
import { Type } from "@sinclair/typebox";
import { CacheMetadata, closed, nullable, queryInteger } from "../domain/model";
import { CURSOR_PARAMETER, POLYGON_SUMMARY_PARAMETERS } from "../mapunits/model";

export const CRS84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84";
export const DEFAULT_ITEMS_LIMIT = 10;
/** The box of an items request without one: every feature of the collection. */
export const WORLD_BBOX = "-180,-90,180,90";
export const MAX_ITEMS_LIMIT = 1000;
/** The `f` values the OGC endpoints accept: both name the one representation each endpoint has. */
export const OUTPUT_FORMATS = ["json", "geojson"] as const;
/** The largest `limit` read (and served as MAX_ITEMS_LIMIT): nine digits, so a 20-digit one is refused, not rounded. */
const MAX_LIMIT_WRITTEN = 999_999_999;

export const OgcLink = t.Object(
  {
    href: t.String(),
    rel: t.String({ examples: ["self"] }),
    type: t.Optional(t.String({ examples: ["application/geo+json"] })),
    title: t.Optional(t.String()),
  },
  { ...closed, title: "OgcLink" },
);

export const OgcLandingPage = t.Object(
  { title: t.String(), description: t.String(), links: t.Array(OgcLink) },
  { ...closed, title: "OgcLandingPage", description: "Links to the API definition (service-desc), the conformance declaration and the collections (data)." },
);

export const OgcConformance = t.Object(
  { conformsTo: t.Array(t.String({ examples: ["http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core"] })) },
  { ...closed, title: "OgcConformance", description: "The conformance classes Loam implements and tests." },
);

export const OgcExtent = t.Object(
  {
    spatial: t.Object(
      {
        bbox: t.Array(t.Array(t.Number(), { minItems: 4, maxItems: 4 }), { description: "[[min_lon, min_lat, max_lon, max_lat]] of the data, computed from it." }),
        crs: t.String({ examples: [CRS84] }),
      },
      { ...closed },
    ),
    temporal: t.Optional(
      t.Object(
        {
          interval: t.Array(t.Array(nullable(t.String()), { minItems: 2, maxItems: 2 }), { description: "[[first, last]] dates of the data (ISO 8601), computed from it." }),
          trs: t.String({ examples: ["http://www.opengis.net/def/uom/ISO-8601/0/Gregorian"] }),
        },
        { ...closed },
      ),
    ),
  },
  { ...closed, title: "OgcExtent" },
);

export const OgcCollection = t.Object(
  {
    id: t.String({ examples: ["mapunits"] }),
    title: t.String(),
    description: t.String(),
    itemType: t.Literal("feature"),
    crs: t.Array(t.String()),
    extent: nullable(OgcExtent),
    links: t.Array(OgcLink),
  },
  { ...closed, title: "OgcCollection" },
);

export const OgcCollections = t.Object({ links: t.Array(OgcLink), collections: t.Array(OgcCollection) }, { ...closed, title: "OgcCollections" });

const FlatValue = t.Union([t.String(), t.Number(), t.Null()]);

export const OgcGeometry = t.Object(
  {
    type: t.Union([t.Literal("Point"), t.Literal("Polygon"), t.Literal("MultiPolygon")]),
    coordinates: t.Array(t.Any(), { description: "GeoJSON coordinates (RFC 7946), WGS84 [lon, lat]." }),
  },
  { ...closed, title: "OgcGeometry" },
);

export const OgcFeature = t.Object(
  {
    type: t.Literal("Feature"),
    id: t.Union([t.String(), Type.Integer()], { description: "The feature's key: a string (a polygon or pedon key, a station triplet), or an integer (a sample site id, as on /v1/geochem/sites)." }),
    geometry: OgcGeometry,
    properties: t.Record(t.String(), FlatValue, { description: "Flat properties: strings, numbers or null (typed fields in GDAL, QGIS, Shapefile)." }),
    links: t.Optional(t.Array(OgcLink)),
    cache: t.Optional(CacheMetadata),
    warnings: t.Optional(t.Array(t.String())),
  },
  { ...closed, title: "OgcFeature" },
);

export const OgcFeatureCollection = t.Object(
  {
    type: t.Literal("FeatureCollection"),
    timeStamp: t.String({ format: "date-time", description: "When the data of this page were read from Loam's source (the cache entry's retrieval time)." }),
    numberMatched: t.Optional(Type.Integer({ minimum: 0, description: "How many features the query matches, every page together; given where counting is cheap (geochem_sites: a walk over the sites held in memory; stations: the walk over the box that finds the page; pedons on the offline snapshot: one COUNT), left out where it is not (pedons on Soil Data Access, mapunits)." })),
    numberReturned: Type.Integer({ minimum: 0 }),
    links: t.Array(OgcLink, { description: "self, collection, and next when more items follow (the same query with its cursor)." }),
    cache: CacheMetadata,
    warnings: t.Array(t.String()),
    features: t.Array(OgcFeature),
  },
  { ...closed, title: "OgcFeatureCollection" },
);

export const CollectionParams = t.Object({ collection_id: t.String({ maxLength: 40, description: "A collection id of GET /ogc/collections: mapunits, pedons, geochem_sites and stations (each role's default provider), or another provider's id.", examples: ["mapunits"] }) });
export const ItemParams = t.Object({
  collection_id: t.String({ maxLength: 40, description: "A collection id of GET /ogc/collections: mapunits, pedons, geochem_sites and stations (each role's default provider), or another provider's id.", examples: ["pedons"] }),
  feature_id: t.String({ maxLength: 40, description: "The feature's id (a polygon key, a pedon key, a sample site id, a station triplet).", examples: ["02N0245"] }),
});

export const ItemsQueryParams = t.Object({
  bbox: t.Optional(
    t.String({
      maxLength: 200,
      default: WORLD_BBOX,
      description:
        "min_lon,min_lat,max_lon,max_lat in CRS84 (WGS84 lon/lat). Four numbers; six (a 3D box) is a 400, as is a box crossing the antimeridian. Absent: the whole world (the mapunits collection needs a box of at most 0.25 degrees per side when Loam reads Soil Data Access).",
      examples: ["-94.37,41.934,-94.35,41.954"],
    }),
  ),
  "bbox-crs": t.Optional(t.String({ maxLength: 100, default: CRS84, description: "Only CRS84 is supported; any other is a 400.", examples: [CRS84] })),
  // The maximum is the page size served, so GDAL >= 3.8 asks full pages; a larger limit reads as it, as Part 1 asks (no error).
  limit: t.Optional(
    queryInteger({
      minimum: 1,
      maximum: MAX_ITEMS_LIMIT,
      "x-read-as-maximum-up-to": MAX_LIMIT_WRITTEN,
      default: DEFAULT_ITEMS_LIMIT,
      description: `Items per page, an integer from 1 to ${MAX_ITEMS_LIMIT}; a larger one (up to ${MAX_LIMIT_WRITTEN}) reads as ${MAX_ITEMS_LIMIT}. Not an integer, below 1 or above ${MAX_LIMIT_WRITTEN}: 400. Ask ${MAX_ITEMS_LIMIT} to walk a large collection in few requests (docs/clients.md).`,
      examples: [10],
    }),
  ),
  datetime: t.Optional(
    t.String({
      maxLength: 100,
      default: "",
      description:
        "Only features whose time meets this instant or interval (OGC API - Features Part 1): an RFC 3339 date-time or a date (its whole UTC day), or an interval start/end with `..` (or nothing) for an open end. Collections with a temporal extent only (geochem_sites: the collection date; stations: the operating period, begin_date to end_date or open, not the series values); on another collection, or not an instant or interval, a 400 (so no example here: Try it out sends every example, and the example collection is mapunits). E.g. 2008-01-01/2008-12-31 on geochem_sites.",
    }),
  ),
  f: t.Optional(
    t.UnionEnum(OUTPUT_FORMATS, {
      default: "json",
      description: "The representation: json or geojson (the same GeoJSON items; JSON for the other documents). Any other value (html included) is a 400 naming these.",
    }),
  ),
  ...CURSOR_PARAMETER,
  ...POLYGON_SUMMARY_PARAMETERS,
});

/** One feature's query: the items parameters but the paging ones (an item has no pages); those are accepted unread, as every OGC name is. */
const { limit: _limit, cursor: _cursor, ...itemProperties } = ItemsQueryParams.properties;
export const ItemQueryParams = t.Object(itemProperties);

export const OgcQueryables = t.Object(
  {
    $schema: t.Literal("https://json-schema.org/draft/2020-12/schema"),
    $id: t.String({ description: "This document's URL." }),
    type: t.Literal("object"),
    title: t.String(),
    properties: t.Record(t.String(), t.Record(t.String(), t.Any()), { description: "Each property of the items with its JSON Schema type (a nullable one [type, 'null']), and geometry with its Part 3 format (geometry-point, ...)." }),
  },
  { ...closed, title: "OgcQueryables", description: "OGC API - Features Part 3 queryables: the JSON Schema of a collection's item properties, derived from the model of the same features on /v1." },
);

export const OGC_MODELS = { OgcQueryables, OgcLink, OgcLandingPage, OgcConformance, OgcExtent, OgcCollection, OgcCollections, OgcGeometry, OgcFeature, OgcFeatureCollection };
