/** Models of GET /v1/soil/mapunits?bbox=…: map-unit polygons as an RFC 7946 FeatureCollection. */
import { defaultProviderId } from "../providers/registry";
import { t } from "elysia";
import { BBOX_PATTERN } from "../domain/model";
import { Type } from "@sinclair/typebox";
import { SUMMARY_OPTION_PARAMETERS } from "../aggregation/options";
import { CURSOR_PARAMETER, DEPTH_PARAMETERS, queryInteger, FORMAT_PARAMETER, featureCollection, closed, nullable, MultiPolygonGeometry, PolygonGeometry } from "../domain/model";

const integer = Type.Integer;

export const DEFAULT_MAP_UNIT_PROVIDER = defaultProviderId("mapped_location");
export const DEFAULT_MAP_UNIT_LIMIT = 2000;
export const MAX_MAP_UNIT_LIMIT = 5000;
/** A box of polygons is small: survey maps are drawn at 1:12,000 to 1:63,360 (docs/decisions.md#limits). */
export const MAP_UNIT_BBOX_LIMITS = { maxSideDegrees: 0.25, maxAreaSquareDegrees: 0.0625 };

/**
 * The summary parameters of the polygon collections (GET /v1/soil/mapunits and the OGC `mapunits`
 * items), in one place: what the per-polygon summaries take, read by `readPolygonSummaries` (plan.ts).
 */
export const POLYGON_SUMMARY_PARAMETERS = {
  property: t.Optional(
    t.String({
      maxLength: 40,
      default: "",
      description:
        "One summary property (GET /v1/properties), e.g. clay, to summarize per map unit; each feature then carries summary {value, category, unit, percent_of_map_unit} and the flat members below. Empty or absent: no summaries. Give property or properties, not both (so no example here: Try it out sends every example).",
    }),
  ),
  properties: t.Optional(
    t.String({
      maxLength: 200,
      default: "",
      description:
        "Comma-separated summary properties (at most eight) to summarize per map unit, as flat members of each feature: `<id>` (the value, or the class of a class property) and `<id>_percent_of_map_unit` (the share of the map unit the value rests on). Empty or absent: no summaries.",
      examples: ["clay,ph"],
    }),
  ),
  method: t.Optional(
    t.String({
      maxLength: 40,
      default: "",
      description:
        "Summary method for every property: weighted_average, dominant_component, dominant_condition, min or max. Empty or absent: each property's default (weighted_average for numbers, dominant_condition for classes).",
      examples: ["weighted_average"],
    }),
  ),
  ...DEPTH_PARAMETERS,
  // Which components each map unit's summary counts (docs/decisions.md#summary-options).
  ...SUMMARY_OPTION_PARAMETERS,
};

export { CURSOR_PARAMETER };

export const MapUnitCollectionQueryParams = t.Object({
  bbox: t.String({
    maxLength: 200,
    description:
      "min_lon,min_lat,max_lon,max_lat: WGS84 decimal degrees, southwest corner then northeast corner; min < max on both axes; at most 0.25 degrees per side.",
    examples: ["-94.37,41.934,-94.35,41.954"],
    pattern: BBOX_PATTERN,
  }),
  provider: t.Optional(
    t.String({ maxLength: 40, default: DEFAULT_MAP_UNIT_PROVIDER, description: `The mapped-survey provider (${DEFAULT_MAP_UNIT_PROVIDER}).`, examples: [DEFAULT_MAP_UNIT_PROVIDER] }),
  ),
  limit: t.Optional(
    queryInteger({ minimum: 1, maximum: MAX_MAP_UNIT_LIMIT, default: DEFAULT_MAP_UNIT_LIMIT, description: "Most polygons per page, 1 to 5000." }),
  ),
  ...POLYGON_SUMMARY_PARAMETERS,
  ...CURSOR_PARAMETER,
  ...FORMAT_PARAMETER,
});

export const MapUnitCollectionQuery = t.Object(
  {
    bbox: t.Array(t.Number(), { minItems: 4, maxItems: 4, description: "[min_lon, min_lat, max_lon, max_lat]" }),
    provider: t.String({ description: "The canonical provider id." }),
    limit: integer(),
    property: nullable(t.String({ description: "The property of the `property` parameter; null when it was not given." })),
    properties: t.Array(t.String(), { description: "Every summarized property id, in order (from property or properties); empty without summaries." }),
    method: nullable(t.String({ description: "The summary method used for every property; null without summaries, or when several properties each take their default." })),
    depth_top_cm: t.Number(),
    depth_bottom_cm: t.Number(),
    include_minors: t.Boolean({ description: "Whether minor components counted in the summaries (docs/decisions.md#summary-options)." }),
    miscellaneous_areas: t.UnionEnum(["include", "exclude"], { description: "Whether miscellaneous areas counted in the summaries." }),
  },
  { ...closed, title: "MapUnitCollectionQuery", description: "The effective query: defaults applied." },
);

export const MapUnitFeatureSummary = t.Object(
  {
    value: nullable(t.Number({ description: "The map unit's summary value; null when no component has data in the interval." })),
    category: nullable(t.String({ description: "The class of a class property (e.g. drainage class); null for numbers." })),
    unit: nullable(t.String({ description: "The unit of value; null for classes." })),
    percent_of_map_unit: t.Number({ description: "The share of the map unit (sum of component percents) the value rests on; below 50 the collection warns." }),
  },
  { ...closed, title: "MapUnitFeatureSummary", description: "For choropleths; GET /v1/soil/mapunits/{map_unit_key} shows the whole summary with its contributions." },
);

export const MapUnitFeatureProperties = t.Object(
  {
    map_unit_key: t.String({ examples: ["2765528"] }),
    map_unit_symbol: nullable(t.String({ examples: ["L138B"] })),
    map_unit_name: nullable(t.String({ examples: ["Clarion loam, Bemis moraine, 2 to 6 percent slopes"] })),
    area_symbol: nullable(t.String({ examples: ["IA073"] })),
    summary: t.Optional(MapUnitFeatureSummary),
  },
  {
    title: "MapUnitFeatureProperties",
    description:
      "The map unit of the polygon; with summaries, flat members per summarized property: `<id>` (number, or the class as a string; null without data) and `<id>_percent_of_map_unit` (number).",
    // Closed but for the flat summary members, whose names are property ids (summary is the object above).
    patternProperties: { "^(?!summary$)[a-z][a-z0-9_]*$": t.Union([t.Number(), t.String(), t.Null()]) },
    additionalProperties: false,
  },
);

export const MapUnitFeature = t.Object(
  {
    type: t.Literal("Feature"),
    id: t.String({ description: "The polygon's key in its source (Soil Data Access: mupolygonkey; offline snapshot: a key made from its survey area, the same in every snapshot file); map units have many polygons." }),
    geometry: t.Union([PolygonGeometry, MultiPolygonGeometry]),
    properties: MapUnitFeatureProperties,
  },
  { ...closed, title: "MapUnitFeature" },
);

const collectionDoc = {
  title: "MapUnitCollection",
  description: "RFC 7946 FeatureCollection of map-unit polygons (EPSG:4326, [lon, lat]) with foreign members provider, query, cache, truncated, next, warnings.",
  truncated: "True when more polygons meet the box than this page lists: follow `next` for the rest.",
};

// The shared collection shape, plus where the next page is (docs/decisions.md#cursors).
export const MapUnitCollection = t.Object(
  {
    ...featureCollection(MapUnitCollectionQuery, MapUnitFeature, collectionDoc).properties,
    next: nullable(t.String({ description: 'The URL of the next page (the same query with its cursor); null on the last page. Also sent as a Link header with rel="next".' })),
  },
  { ...closed, title: collectionDoc.title, description: collectionDoc.description },
);

export const MAP_UNIT_COLLECTION_MODELS = {
  MapUnitCollectionQuery,
  PolygonGeometry,
  MultiPolygonGeometry,
  MapUnitFeatureSummary,
  MapUnitFeatureProperties,
  MapUnitFeature,
  MapUnitCollection,
};
