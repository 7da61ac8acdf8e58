/**
 * Models of areas and many points (docs/decisions.md#areas): GET /v1/soil/aoi, the report of an area of
 * interest (its map units with their geodesic areas and summaries, and the area-weighted summaries),
 * and GET /v1/soil/points, the summaries at up to 100 points in one request.
 */
import { defaultProviderId } from "../providers/registry";

/** The mapped-survey provider of an area report when a request names none (declared in the registry). */
const DEFAULT_AREA_PROVIDER = defaultProviderId("mapped_location");
import { t } from "elysia";
import { Type } from "@sinclair/typebox";
import { CacheMetadata, DEPTH_PARAMETERS, DepthInterval, closed, nullable, envelope } from "../domain/model";
import { PropertyReference, Transformation, propertiesParameter } from "../catalog/model";
import { DEFAULT_SUMMARY_PROPERTIES, PropertySummary, SummaryMethodName } from "../aggregation/model";
import { MultiPolygonGeometry, PolygonGeometry } from "../domain/model";
import { MAX_AOI_HECTARES, MAX_AOI_LATITUDE, MAX_AOI_SIDE_DEGREES, MAX_AOI_VERTICES } from "./geometry";
import { SUMMARY_OPTION_PARAMETERS } from "../aggregation/options";
import { BBOX_PATTERN } from "../domain/model";

export const MAX_POINTS = 100;

const summaryParameters = {
  provider: t.Optional(t.String({ maxLength: 40, default: DEFAULT_AREA_PROVIDER, description: `The mapped-survey provider (${DEFAULT_AREA_PROVIDER}).`, examples: [DEFAULT_AREA_PROVIDER] })),
  properties: propertiesParameter(DEFAULT_SUMMARY_PROPERTIES),
  method: t.Optional(
    t.String({
      maxLength: 40,
      default: "",
      description:
        "Aggregation method of each map unit's summary: weighted_average, dominant_component, dominant_condition, min or max. Empty (default): weighted_average for numbers, dominant_condition for classes. A method that does not fit a property is a 422.",
      examples: ["weighted_average"],
    }),
  ),
  ...DEPTH_PARAMETERS,
  // Which components each map unit's summary counts (docs/decisions.md#summary-options).
  ...SUMMARY_OPTION_PARAMETERS,
};

export const AoiQueryParams = t.Object({
  polygon: t.Optional(
    t.String({
      maxLength: 60_000,
      default: "",
      description: `The area of interest as WKT in CRS84 (longitude latitude): one POLYGON, its outer ring and any holes, each ring closed; at most ${MAX_AOI_VERTICES} vertices and ${MAX_AOI_HECTARES.toLocaleString("en-US")} ha, within ${MAX_AOI_SIDE_DEGREES} degree a side, between latitudes -${MAX_AOI_LATITUDE} and ${MAX_AOI_LATITUDE} and not across the antimeridian; rings must not cross or touch. Give polygon or bbox.`,
      examples: ["POLYGON ((-94.361846 41.943158, -94.358198 41.943158, -94.358198 41.945788, -94.361846 41.945788, -94.361846 41.943158))"],
    }),
  ),
  bbox: t.Optional(
    t.String({
      maxLength: 200,
      default: "",
      // Absent (empty) or a box: the pattern the route's parser enforces. No example: polygon has one, and only one of them may be given.
      pattern: `^$|${BBOX_PATTERN.slice(1)}`,
      description: "The area of interest as a rectangle min_lon,min_lat,max_lon,max_lat (WGS84 degrees, southwest corner first), e.g. -94.361846,41.943158,-94.358198,41.945788, read as the polygon of its four corners; at most 1 degree a side, between latitudes -85 and 85. Give polygon or bbox.",
    }),
  ),
  ...summaryParameters,
  format: t.Optional(
    t.UnionEnum(["json", "csv", "geojson"], {
      default: "json",
      description:
        "json (default): the report; csv: one row per map unit and property, then one per property for the whole area (RFC 4180, provenance as columns, warnings last); geojson: the map-unit polygons cut to the area, each with its map unit and area. Accept: text/csv selects csv when format is absent. Errors stay JSON.",
    }),
  ),
});

export const PointsQueryParams = t.Object({
  points: t.String({
    maxLength: 5000,
    description: `Points as latitude,longitude pairs separated by semicolons (WGS84 decimal degrees), at most ${MAX_POINTS}; answered in this order.`,
    examples: ["41.944131,-94.359608;41.943704,-94.361061"],
  }),
  ...summaryParameters,
  format: t.Optional(
    t.UnionEnum(["json", "csv"], {
      default: "json",
      description: "json (default) or csv: one row per point and property, the point's index and coordinates first (RFC 4180). Accept: text/csv does the same when format is absent. Errors stay JSON.",
    }),
  ),
});

const summaryQueryFields = {
  provider: t.String(),
  properties: t.Array(t.String()),
  method: t.Union([SummaryMethodName, t.Null()], { description: "The method asked for; null when each property takes its default." }),
  depth_top_cm: t.Number(),
  depth_bottom_cm: t.Number(),
  include_minors: t.Boolean({ description: "Whether minor components counted in each map unit's summary." }),
  miscellaneous_areas: t.UnionEnum(["include", "exclude"], { description: "Whether miscellaneous areas counted in each map unit's summary." }),
};

export const AoiQuery = t.Object(
  {
    polygon: t.String({ description: "The area as WKT (CRS84), outer ring counter-clockwise and holes clockwise; a bbox is given as its rectangle." }),
    bbox: nullable(t.Array(t.Number(), { minItems: 4, maxItems: 4, description: "[min_lon, min_lat, max_lon, max_lat] when the area was given as bbox." })),
    ...summaryQueryFields,
  },
  { ...closed, title: "AoiQuery", description: "The effective query: defaults applied, aliases resolved." },
);

export const AoiArea = t.Object(
  {
    area_ha: t.Number({ description: "Geodesic area on the WGS84 ellipsoid, hectares (6 significant digits)." }),
    area_acres: t.Number({ description: "The same area in international acres." }),
    mapped_percent: t.Number({ description: "Percent of the area covered by map-unit polygons; always a number (0 where no map unit lies)." }),
    vertex_count: Type.Integer({ description: "Vertices of the area's rings (closing repeats not counted)." }),
  },
  { ...closed, title: "AoiArea" },
);

export const AoiMapUnit = t.Object(
  {
    provider: t.String(),
    area_symbol: nullable(t.String()),
    map_unit_key: t.String(),
    map_unit_symbol: nullable(t.String()),
    map_unit_name: nullable(t.String()),
    polygon_count: Type.Integer({ description: "Map-unit polygons (delineations) of this map unit that meet the area." }),
    area_ha: t.Number({ description: "Geodesic area of its polygons inside the area, hectares." }),
    area_acres: t.Number(),
    percent_of_aoi: t.Number({ description: "area_ha as a percent of the area of interest." }),
    summaries: t.Array(PropertySummary, { description: "The map unit's summaries, as GET /v1/soil/mapunits/{map_unit_key} gives them." }),
  },
  { ...closed, title: "AoiMapUnit" },
);

export const AoiContribution = t.Object(
  {
    map_unit_key: t.String(),
    map_unit_symbol: nullable(t.String()),
    map_unit_name: nullable(t.String()),
    area_ha: t.Number(),
    percent_of_aoi: t.Number(),
    value: nullable(t.Number()),
    category: nullable(t.String()),
  },
  { ...closed, title: "AoiContribution" },
);

export const AoiSummary = t.Object(
  {
    property: PropertyReference,
    method: SummaryMethodName,
    value: nullable(t.Number({ description: "Numbers: the map units' values weighted by their areas (min and max: the least and greatest)." })),
    category: nullable(t.String({ description: "Classes: the class holding the largest area." })),
    unit: nullable(t.String()),
    depth: DepthInterval,
    percent_of_aoi: t.Number({ description: "Numbers: percent of the area whose map units have a value (the weight behind this one). Classes: percent of the area in the class named (the class share)." }),
    contributions: t.Array(AoiContribution, { description: "Each map unit's value and the area it weighs with." }),
    transformations: t.Array(Transformation),
    warnings: t.Array(t.String()),
  },
  { ...closed, title: "AoiSummary" },
);

export const AoiSource = t.Object(
  {
    provider: t.String(),
    kind: t.String({ description: "Where the polygons were read: snapshot (Loam's offline snapshot) or sda (Soil Data Access)." }),
    organization: t.String(),
    retrieved_at: t.String({ format: "date-time", description: "When the source read the polygons (snapshot build, or the SDA call)." }),
    citation: t.String(),
    source_url: t.String(),
  },
  { ...closed, title: "AoiSource" },
);

export const AoiReport = envelope(
  "AoiReport",
  {
    query: AoiQuery,
    data_kind: t.Literal("derived"),
    aoi: AoiArea,
    map_units: t.Array(AoiMapUnit, { description: "Map units in the area, largest area first (tie: map unit key)." }),
    summaries: t.Array(AoiSummary, { description: "One per requested property, for the whole area." }),
    source: AoiSource,
  },
);

export const AoiFeatureProperties = t.Object(
  {
    map_unit_key: t.String(),
    map_unit_symbol: nullable(t.String()),
    map_unit_name: nullable(t.String()),
    area_symbol: nullable(t.String()),
    area_ha: t.Number({ description: "Geodesic area of this cut polygon, hectares." }),
    area_acres: t.Number(),
    percent_of_aoi: t.Number(),
  },
  { ...closed, title: "AoiFeatureProperties" },
);

export const AoiFeature = t.Object(
  {
    type: t.Literal("Feature"),
    id: t.String({ description: "The source polygon's key (SDA mupolygonkey; snapshot: a key made from its survey area)." }),
    geometry: t.Union([PolygonGeometry, MultiPolygonGeometry]),
    properties: AoiFeatureProperties,
  },
  { ...closed, title: "AoiFeature" },
);

export const AoiFeatureCollection = t.Object(
  {
    type: t.Literal("FeatureCollection"),
    provider: t.String(),
    query: AoiQuery,
    aoi: AoiArea,
    cache: CacheMetadata,
    warnings: t.Array(t.String()),
    features: t.Array(AoiFeature),
  },
  { ...closed, title: "AoiFeatureCollection", description: "format=geojson: RFC 7946 FeatureCollection of the map-unit polygons cut to the area (EPSG:4326, [lon, lat])." },
);

export const PointsQuery = t.Object(
  {
    points: t.Array(t.Array(t.Number(), { minItems: 2, maxItems: 2 }), { description: "[latitude, longitude] pairs in input order." }),
    ...summaryQueryFields,
  },
  { ...closed, title: "PointsQuery", description: "The effective query: defaults applied, aliases resolved." },
);

export const PointMapUnit = t.Object(
  {
    provider: t.String(),
    area_symbol: t.String(),
    map_unit_key: t.String(),
    map_unit_symbol: t.String(),
    map_unit_name: t.String(),
  },
  { ...closed, title: "PointMapUnit", description: "GET /v1/soil/mapunits/{map_unit_key} lists its components." },
);

export const PointItem = t.Object(
  {
    index: Type.Integer({ minimum: 0, description: "Position of the point in the request, from 0." }),
    latitude: t.Number(),
    longitude: t.Number(),
    map_unit: nullable(PointMapUnit),
    summaries: t.Array(PropertySummary, { description: "As GET /v1/soil/summary gives them for this point." }),
    warnings: t.Array(t.String({ description: "This point's own warnings (no map unit there, several map units, components without data)." })),
  },
  { ...closed, title: "PointItem" },
);

export const PointsResponse = envelope(
  "PointsResponse",
  {
    query: PointsQuery,
    data_kind: t.Literal("derived"),
    points: t.Array(PointItem, { description: "One item per point, in input order." }),
  },
);

export const AREA_MODELS = {
  AoiQuery,
  AoiArea,
  AoiMapUnit,
  AoiContribution,
  AoiSummary,
  AoiSource,
  AoiReport,
  AoiFeatureProperties,
  AoiFeature,
  AoiFeatureCollection,
  PointsQuery,
  PointMapUnit,
  PointItem,
  PointsResponse,
};
