/**
 * Models of the geochemistry endpoints (any sample_sites provider, docs/decisions.md#geochem):
 * GET /v1/geochem/sites, GET /v1/geochem/sites/{site_id}, GET /v1/providers/{provider_id}/raw/sites/{site_id}.
 */
import { defaultProviderId } from "../providers/registry";
import { t, type Static } from "elysia";
import { Type } from "@sinclair/typebox";
import { CacheMetadata, CURSOR_PARAMETER, FORMAT_PARAMETER, closed, nullable, queryInteger, envelope } from "../domain/model";
import { ValueQualifier } from "../domain/lab";
import { distanceKm, notRepresentative, siteFeature } from "../shapes/sites/model";
import { GeochemObservation, GeochemObservationSource, GeochemSource, SampleDepth, SampleSite } from "../domain/sample-site";

/** A site's result for one element: a number, a censored result, or no sample (N.S.). */
export const RESULT_STATUSES = ["measured", "censored", "not_sampled"] as const;

/** The sample-site provider a request names when it names none (declared in the registry). */
export const GEOCHEM_PROVIDER = defaultProviderId("sample_sites");
export const DEFAULT_SITE_LIMIT = 100;
export const MAX_SITE_LIMIT = 1000;
/** The box of a query that names none: every site, page by page. */
export const WHOLE_WORLD = "-180,-90,180,90";
/** The most sites a point's nearest-site query returns. */
export const MAX_NEAR_LIMIT = 100;

// ---- GET /v1/geochem/sites -----------------------------------------------------------------------

export const GeochemSitesQueryParams = t.Object({
  bbox: t.Optional(
    t.String({
      maxLength: 200,
      default: WHOLE_WORLD,
      description:
        "min_lon,min_lat,max_lon,max_lat: WGS84 decimal degrees, southwest corner first, min < max on both axes; any size inside WGS84 (the sites are sparse: about one per 1,600 km2); default the whole WGS84 range (every site, page by page). Not together with near.",
      examples: ["-96.7,40.3,-90.1,43.6"],
    }),
  ),
  near: t.Optional(
    t.String({
      maxLength: 100,
      default: "",
      // No example: the document's examples are sent together (Try it out), and near excludes bbox.
      description: "latitude,longitude (WGS84 decimal degrees), e.g. 42.0864,-93.7571: the sites nearest this point, nearest first, each with distance_km, instead of a box (give one of bbox and near); no cursor.",
    }),
  ),
  limit: t.Optional(
    queryInteger({
      minimum: 1,
      maximum: MAX_SITE_LIMIT,
      default: DEFAULT_SITE_LIMIT,
      description: `Most sites per page, 1 to ${MAX_SITE_LIMIT} (with near: 1 to ${MAX_NEAR_LIMIT}).`,
    }),
  ),
  ...CURSOR_PARAMETER,
  property: t.Optional(
    t.String({
      maxLength: 60,
      default: "",
      description: "One element (a property id or alias, e.g. arsenic, lead, pb, calcium_total): each site then carries its result as flat members value, reported_value, value_qualifier, reporting_limit, unit, for mapping.",
      examples: ["arsenic"],
    }),
  ),
  provider: t.Optional(
    t.String({ maxLength: 60, default: "", description: "A sample_sites provider (GET /v1/providers lists them); default the registry's first provider of sample sites." }),
  ),
  ...FORMAT_PARAMETER,
});

export const GeochemSitesQuery = t.Object(
  {
    bbox: nullable(t.Array(t.Number(), { minItems: 4, maxItems: 4, description: "[min_lon, min_lat, max_lon, max_lat]" })),
    near: nullable(t.Array(t.Number(), { minItems: 2, maxItems: 2, description: "[latitude, longitude]" })),
    limit: Type.Integer(),
    property: nullable(t.String({ description: "The canonical property id of the element asked for." })),
    cursor: nullable(t.String()),
  },
  { ...closed, title: "GeochemSitesQuery", description: "The effective query: defaults applied, an alias resolved to its property id." },
);

export const GeochemSiteFeatureProperties = t.Object(
  {
    site_id: Type.Integer({ minimum: 1 }),
    lab_id: nullable(t.String({ description: "Laboratory sample id; null for a site with no sample (N.S.).", examples: ["C-349023"] })),
    state: nullable(t.String({ examples: ["IA"] })),
    collection_date: nullable(t.String({ format: "date" })),
    land_cover_primary: nullable(t.String({ description: "NLCD 1992 class name as recorded." })),
    land_cover_secondary: nullable(t.String({ description: "NLCD 1992 class name as recorded." })),
    depth: SampleDepth,
    representative_of_bbox: notRepresentative("one 0-5 cm sample per about 1,600 km2 is not representative of a box or a field."),
    distance_km: distanceKm(),
    property: t.Optional(t.String({ description: "With property: the property id of the flat result members." })),
    value: t.Optional(nullable(t.Number({ description: "The result in `unit`; null when censored or when no sample was analysed (N.S.). Never the reporting limit." }))),
    reported_value: t.Optional(t.String({ description: "The file's cell exactly: a number, a censored result such as '<1', or 'N.S.' (no sample)." })),
    value_qualifier: t.Optional(ValueQualifier),
    // value null says "no number" for two different reasons: the status names which (docs/decisions.md#geochem-result-status).
    result_status: t.Optional(
      t.UnionEnum(RESULT_STATUSES, {
        description: "What the result is: measured (value is the number), censored (below the reporting limit: value null, value_qualifier and reporting_limit say so) or not_sampled (the file's N.S.: no sample was analysed; value null, no limit).",
      }),
    ),
    reporting_limit: t.Optional(nullable(t.Number({ description: "The limit of a censored result, in `unit`." }))),
    unit: t.Optional(t.String({ description: "The served unit (from the file's unit row: mg/kg, or % for the file's wt. %)." })),
  },
  { ...closed, title: "GeochemSiteFeatureProperties" },
);

export const GeochemSiteFeature = siteFeature(Type.Integer({ description: "Equals properties.site_id." }), GeochemSiteFeatureProperties, "GeochemSiteFeature");

export const GeochemSiteCollection = t.Object(
  {
    type: t.Literal("FeatureCollection"),
    provider: t.String({ examples: [GEOCHEM_PROVIDER] }),
    query: GeochemSitesQuery,
    cache: CacheMetadata,
    truncated: t.Boolean({ description: "True when more sites match: follow `next` (or the Link header) for the next page." }),
    next: nullable(t.String({ description: "Path of the next page (the same query with its cursor); null on the last page and for near." })),
    warnings: t.Array(t.String()),
    features: t.Array(GeochemSiteFeature),
  },
  {
    ...closed,
    title: "GeochemSiteCollection",
    description: "RFC 7946 FeatureCollection of geochemistry sample sites, ordered by site id (near: by distance), with foreign members provider, query, cache, truncated, next, warnings.",
  },
);
export type GeochemSiteCollection = Static<typeof GeochemSiteCollection>;
export type GeochemSiteFeature = Static<typeof GeochemSiteFeature>;

// ---- GET /v1/geochem/sites/{site_id} --------------------------------------------------------------

/**
 * A DS 801 SiteID as the default provider's `key.parse` reads it, written again only for the OpenAPI
 * document: a path parameter's schema needs a pattern, which a provider's parser cannot give (the
 * route and the OGC collection check ids with `key.parse`; the document promises what they enforce).
 */
const SITE_ID_PATTERN = "^[1-9][0-9]{0,8}$";
export const SiteIdParam = t.String({ description: "The sample site's id: a positive integer (8 to 31081 in the default provider's file).", examples: ["3560"], pattern: SITE_ID_PATTERN });
/** Checked by the route's own parser, with a message naming the rule (Elysia does not check it first). */
export const GeochemSiteParams = t.Object({ site_id: SiteIdParam }, { noValidate: true });

export const GeochemSiteQueryParams = t.Object({
  properties: t.Optional(
    t.String({
      maxLength: 1000,
      default: "",
      description: "Comma-separated elements (property ids or aliases: arsenic, lead, pb, calcium_total); default every element of the file (44).",
      examples: ["arsenic,selenium,lead"],
    }),
  ),
  provider: t.Optional(
    t.String({ maxLength: 60, default: "", description: "A sample_sites provider (GET /v1/providers lists them); default the registry's first provider of sample sites." }),
  ),
  ...FORMAT_PARAMETER,
});

export const GeochemSiteQuery = t.Object(
  { site_id: Type.Integer(), properties: t.Array(t.String()) },
  { ...closed, title: "GeochemSiteQuery", description: "The effective query: the elements by property id, in file order." },
);

export const GeochemSiteResponse = envelope(
  "GeochemSiteResponse",
  {
    provider: t.String({ examples: [GEOCHEM_PROVIDER] }),
    data_kind: t.Literal("observed"),
    query: GeochemSiteQuery,
    site: SampleSite,
    observations: t.Array(GeochemObservation, { description: "One per element asked for that has a result; an element with no sample (N.S.) has none and a warning instead." }),
    source: GeochemSource,
  }, { description: "A geochemistry sample site and its element results." },
);
export type GeochemSiteResponse = Static<typeof GeochemSiteResponse>;

// ---- GET /v1/providers/{provider_id}/raw/sites/{site_id} ------------------------------------------

export const RawGeochemSiteParams = t.Object({
  provider_id: t.String({ description: `A sample-site provider: ${GEOCHEM_PROVIDER}.`, examples: [GEOCHEM_PROVIDER] }),
  site_id: SiteIdParam,
});

export const RawGeochemSiteQuery = t.Object({ site_id: Type.Integer() }, { ...closed, title: "RawGeochemSiteQuery" });

export const RawGeochemSiteResponse = t.Object(
  {
    provider: t.String(),
    status: t.Literal("experimental"),
    query: RawGeochemSiteQuery,
    retrieved_at: t.String({ format: "date-time" }),
    cache: CacheMetadata,
    upstream_response: t.Object(
      {
        row: t.Record(t.String(), t.String(), { description: "The site's row: {column: cell} exactly as the file has it." }),
        units: t.Record(t.String(), t.String(), { description: "The unit row: {column: unit} (empty where the file gives none)." }),
      },
      { ...closed, title: "RawGeochemRow" },
    ),
    warnings: t.Array(t.String()),
  },
  { ...closed, title: "RawGeochemSiteResponse" },
);

export const GEOCHEM_MODELS = {
  GeochemSitesQuery,
  GeochemSiteFeatureProperties,
  GeochemSiteFeature,
  GeochemSiteCollection,
  GeochemSiteQuery,
  GeochemObservationSource,
  GeochemObservation,
  GeochemSource,
  GeochemSiteResponse,
  RawGeochemSiteQuery,
  RawGeochemSiteResponse,
};
