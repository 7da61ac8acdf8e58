/** Models of the point_values shape (docs/architecture.md#shapes): values at a point by property and depth, and a layer as a grid. */
import { t } from "elysia";
import { COORDINATE_PARAMETERS, DEPTH_PARAMETERS, FORMAT_PARAMETER, closed, nullable, envelope } from "../../domain/model";
import { DataKind, GridObservation } from "../../domain/observation";
import { LicenseRecord } from "../../domain/observation";
import { PropertyReference } from "../../catalog/model";

const providerParameter = t.Optional(
  t.String({ maxLength: 40, default: "", description: "One point_values provider id or alias (GET /v1/providers); empty (the default): the first registered." }),
);

export const ModeledQueryParams = t.Object({
  ...COORDINATE_PARAMETERS,
  properties: t.Optional(
    t.String({
      maxLength: 200,
      default: "",
      description:
        "Comma-separated canonical property ids or aliases (GET /v1/properties), at most eight after aliases are resolved; at most 200 characters. Empty (the default): the provider's own list.",
      examples: ["clay,silt"],
    }),
  ),
  ...DEPTH_PARAMETERS,
  method: t.Optional(
    t.UnionEnum(["none", "weighted_average"], {
      default: "none",
      description:
        "none (default): one observation per property and provider depth overlapping the interval, never averaged across depths. weighted_average: one derived observation per property over the interval (or the part of it the provider's depths cover), the depth values weighted by the centimetres each overlaps it, with the step as a transformation; its uncertainty is not derived (uncertainty.method says why).",
      examples: ["weighted_average"],
    }),
  ),
  provider: providerParameter,
  ...FORMAT_PARAMETER,
});

export const ModeledQuery = t.Object(
  {
    latitude: t.Number(),
    longitude: t.Number(),
    provider: t.String(),
    properties: t.Array(t.String()),
    depth_top_cm: t.Number(),
    depth_bottom_cm: t.Number(),
    method: t.UnionEnum(["none", "weighted_average"]),
  },
  { ...closed, title: "ModeledQuery", description: "The effective query: defaults applied, aliases resolved to canonical ids." },
);

export const ModeledResponse = envelope(
  "ModeledResponse",
  {
    query: ModeledQuery,
    data_kind: t.Union(DataKind.anyOf, { description: "What the provider's values are, as it declares (a model's predictions: modeled)." }),
    // A modeled raster's values: each carries its grid_context (a typed client reads it as such).
    observations: t.Array(GridObservation, {
      description: "One per property and provider depth overlapping the interval (method=weighted_average: one derived observation per property); each with the provider's context (a modeled raster cell: grid_context).",
    }),
  },
);

export const GridQueryParams = t.Object({
  property: t.String({ maxLength: 40, description: "One canonical property id or alias.", examples: ["clay"] }),
  depth: t.String({ maxLength: 20, pattern: "^[0-9]{1,3}-[0-9]{1,3}cm$", description: "The provider's depth label (e.g. 0-5cm).", examples: ["0-5cm"] }),
  provider: providerParameter,
});

export const LegendClass = t.Object(
  { min: t.Number(), max: t.Number(), color: t.String({ pattern: "^#[0-9a-f]{6}$" }), label: t.String() },
  { ...closed, title: "LegendClass", description: "Values from min (inclusive) to max (exclusive; the last class includes it) are drawn in color." },
);

export const GridResponse = envelope(
  "GridResponse",
  {
    provider: t.String(),
    data_kind: t.Union(DataKind.anyOf),
    property: PropertyReference,
    unit: t.String(),
    depth: t.Object({ top_cm: t.Number(), bottom_cm: t.Number(), label: t.String() }, closed),
    statistic: t.String({ description: "The statistic the grid holds (mean)." }),
    crs: t.String({ description: "The grid's coordinate reference system (EPSG:4326: degrees)." }),
    origin: t.Array(t.Number(), { minItems: 2, maxItems: 2, description: "[longitude, latitude] of the top-left corner of the top-left cell." }),
    cell_size: t.Array(t.Number(), { minItems: 2, maxItems: 2, description: "[width, height] of a cell in CRS units (degrees); rows run southwards from the origin." }),
    width: t.Number({ minimum: 1, multipleOf: 1 }),
    height: t.Number({ minimum: 1, multipleOf: 1 }),
    nodata: t.Null({ description: "What marks a cell with no data in values: null." }),
    values: t.Array(nullable(t.Number()), { description: "width x height values, row-major from the top-left cell, in unit; null where the layer has no data." }),
    legend: t.Object({ classes: t.Array(LegendClass) }, closed),
    citation: t.String(),
    license: LicenseRecord,
    source_url: t.String(),
    retrieved_at: t.String({ format: "date-time" }),
    layers: t.Array(t.Object({ property: t.String(), depth: t.String() }, closed), { description: "Every layer the provider holds as a grid (what else this route can draw)." }),
  },
);

export const POINT_VALUES_MODELS = { ModeledQuery, ModeledResponse, LegendClass, GridResponse };
