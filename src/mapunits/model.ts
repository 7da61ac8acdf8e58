/** Models of GET /v1/soil/mapunits?bbox=…: map-unit polygons as an RFC 7946 FeatureCollection. */
import { t } from "elysia";
import { BBOX_PATTERN } from "../domain/model";
import { Type } from "@sinclair/typebox";
import { DEPTH_PARAMETERS, queryInteger, FORMAT_PARAMETER, featureCollection, closed, nullable } from "../domain/model";

const integer = Type.Integer;

export const DEFAULT_MAP_UNIT_PROVIDER = "usda_ssurgo";
export const DEFAULT_MAP_UNIT_LIMIT = 2000;
export const MAX_MAP_UNIT_LIMIT = 5000;
/** A box of polygons is small: survey maps are drawn at 1:12,000 to 1:63,360 (docs/decisions.md#limits). */
export const MAP_UNIT_BBOX_LIMITS = { maxSideDegrees: 0.25, maxAreaSquareDegrees: 0.0625 };

export const MapUnitCollectionQueryParams = t.Object({
  bbox: t.String({
    maxLength: 200,
    description:
      "min_lon,min_lat,max_lon,max_lat: WGS84 decimal degrees, southwest corner then northeast corner; min < max on both axes; at most 0.25 degrees per side.",
    examples: ["-94.37,41.934,-94.35,41.954"],
    pattern: BBOX_PATTERN,
  }),
  provider: t.Optional(
    t.String({ maxLength: 40, default: DEFAULT_MAP_UNIT_PROVIDER, description: "The mapped-survey provider (usda_ssurgo).", examples: [DEFAULT_MAP_UNIT_PROVIDER] }),
  ),
  limit: t.Optional(
    queryInteger({ minimum: 1, maximum: MAX_MAP_UNIT_LIMIT, default: DEFAULT_MAP_UNIT_LIMIT, description: "Most polygons to return, 1 to 5000." }),
  ),
  property: t.Optional(
    t.String({
      maxLength: 40,
      default: "",
      description:
        "A summary property (GET /v1/properties) to summarize per map unit; each feature then carries summary {value, category, unit}. Empty or absent: no summaries.",
      examples: ["clay"],
    }),
  ),
  method: t.Optional(
    t.String({
      maxLength: 40,
      default: "",
      description:
        "Summary method: weighted_average, dominant_component, dominant_condition, min or max. Empty or absent: the property's default (weighted_average for numbers, dominant_condition for classes).",
      examples: ["weighted_average"],
    }),
  ),
  ...DEPTH_PARAMETERS,
  ...FORMAT_PARAMETER,
});

export const MapUnitCollectionQuery = t.Object(
  {
    bbox: t.Array(t.Number(), { minItems: 4, maxItems: 4, description: "[min_lon, min_lat, max_lon, max_lat]" }),
    provider: t.String({ description: "The canonical provider id." }),
    limit: integer(),
    property: nullable(t.String({ description: "The summarized property id; null when none was asked for." })),
    method: nullable(t.String({ description: "The summary method used; null without a property." })),
    depth_top_cm: t.Number(),
    depth_bottom_cm: t.Number(),
  },
  { ...closed, title: "MapUnitCollectionQuery", description: "The effective query: defaults applied." },
);

export const PolygonGeometry = t.Object(
  {
    type: t.Literal("Polygon"),
    coordinates: t.Array(t.Array(t.Array(t.Number(), { minItems: 2, maxItems: 2 }), { minItems: 4 }), {
      description: "Rings of [longitude, latitude] positions, WGS84: the outer ring (counter-clockwise) first, then its holes (clockwise).",
    }),
  },
  { ...closed, title: "PolygonGeometry" },
);

export const MultiPolygonGeometry = t.Object(
  {
    type: t.Literal("MultiPolygon"),
    coordinates: t.Array(t.Array(t.Array(t.Array(t.Number(), { minItems: 2, maxItems: 2 }), { minItems: 4 })), {
      description: "Polygons, each as a Polygon's coordinates.",
    }),
  },
  { ...closed, title: "MultiPolygonGeometry" },
);

export const MapUnitFeatureSummary = t.Object(
  {
    value: nullable(t.Number({ description: "The map unit's summary value; null when no component has data in the interval." })),
    category: nullable(t.String({ description: "The class of a class property (e.g. drainage class); null for numbers." })),
    unit: nullable(t.String({ description: "The unit of value; null for classes." })),
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
  { ...closed, title: "MapUnitFeatureProperties" },
);

export const MapUnitFeature = t.Object(
  {
    type: t.Literal("Feature"),
    id: t.String({ description: "The polygon's key in its source (Soil Data Access: mupolygonkey; offline snapshot: the polygon's row); map units have many polygons." }),
    geometry: t.Union([PolygonGeometry, MultiPolygonGeometry]),
    properties: MapUnitFeatureProperties,
  },
  { ...closed, title: "MapUnitFeature" },
);

export const MapUnitCollection = featureCollection(MapUnitCollectionQuery, MapUnitFeature, {
  title: "MapUnitCollection",
  description: "RFC 7946 FeatureCollection of map-unit polygons (EPSG:4326, [lon, lat]) with foreign members provider, query, cache, truncated, warnings.",
  truncated: "True when more polygons meet the box than `limit`: the collection is not complete; narrow the box.",
});

export const MAP_UNIT_COLLECTION_MODELS = {
  MapUnitCollectionQuery,
  PolygonGeometry,
  MultiPolygonGeometry,
  MapUnitFeatureSummary,
  MapUnitFeatureProperties,
  MapUnitFeature,
  MapUnitCollection,
};
