/** Models of GET /v1/pedons/layers: one row per layer and property for the pedons of a box (docs/decisions.md#bulk-tables). */
import { t } from "elysia";
import { Type } from "@sinclair/typebox";
import { CacheMetadata, CURSOR_PARAMETER, FORMAT_PARAMETER, closed, nullable, queryInteger } from "../domain/model";
import { propertiesParameter } from "../catalog/model";
import { DEFAULT_LAB_PROVIDER, DEFAULT_PEDON_PROPERTIES, PEDON_DEPTH_PARAMETERS } from "./model";
import { ValueQualifier } from "../domain/lab";
import { Transformation } from "../catalog/model";

export const DEFAULT_LAYER_TABLE_LIMIT = 50;
/** Pedons per page: each is one upstream query (one SDA request when not cached), so a page is bounded. */
export const MAX_LAYER_TABLE_LIMIT = 100;

export const LayerTableQueryParams = t.Object({
  bbox: t.String({
    maxLength: 200,
    description: "min_lon,min_lat,max_lon,max_lat: WGS84 decimal degrees, southwest corner first; any box inside WGS84, as the OGC pedons collection takes (a page is bounded by limit; a CSV holds every page, at most 50,000 rows and 2,000 pedons).",
    examples: ["-96,38.5,-95,39.5"],
  }),
  provider: t.Optional(t.String({ maxLength: 40, default: DEFAULT_LAB_PROVIDER, description: `Laboratory pedon provider: ${DEFAULT_LAB_PROVIDER} or an alias.`, examples: [DEFAULT_LAB_PROVIDER] })),
  properties: propertiesParameter(DEFAULT_PEDON_PROPERTIES),
  limit: t.Optional(
    queryInteger({ minimum: 1, maximum: MAX_LAYER_TABLE_LIMIT, default: DEFAULT_LAYER_TABLE_LIMIT, description: "Most pedons per page (all their layers are listed), 1 to 100." }),
  ),
  ...CURSOR_PARAMETER,
  // The pedon detail's bounds: without depth_bottom_cm every layer of every pedon (docs/decisions.md#pedon-depth).
  ...PEDON_DEPTH_PARAMETERS,
  ...FORMAT_PARAMETER,
});

export const LayerTableQuery = t.Object(
  {
    bbox: t.Array(t.Number(), { minItems: 4, maxItems: 4 }),
    provider: t.String(),
    properties: t.Array(t.String()),
    limit: Type.Integer(),
    depth_top_cm: t.Number(),
    depth_bottom_cm: t.Number(),
  },
  { ...closed, title: "LayerTableQuery", description: "The effective query: defaults applied, aliases resolved." },
);

export const LayerTableRow = t.Object(
  {
    layer_key: t.String({ description: "The provider's layer key (as in GET /v1/pedons/{pedon_key})." }),
    pedon_key: t.String(),
    depth_top_cm: nullable(t.Number()),
    depth_bottom_cm: nullable(t.Number()),
    horizon_designation: nullable(t.String()),
    layer_type: nullable(t.String({ description: "The laboratory's layer type as recorded (horizon, layer, reporting layer); filter on it before summing over depth." })),
    property: t.String({ description: "Canonical property id." }),
    value: nullable(t.Number({ description: "The canonical value; null when censored or not a number (never the reporting limit)." })),
    reported_value: t.String({ description: "The result exactly as reported, in original_column (for a derived row, the source value it was derived from)." }),
    value_qualifier: ValueQualifier,
    reporting_limit: nullable(t.Number()),
    unit: t.String(),
    method_code: nullable(t.String()),
    measurement_method: nullable(t.String()),
    original_column: t.String({ description: "The provider's column the reported value comes from (table.column)." }),
    data_kind: t.Union([t.Literal("observed"), t.Literal("derived")], { description: "derived: computed by Loam from the reported value (organic matter from organic carbon); transformations say how." }),
    transformations: t.Array(Transformation),
  },
  { ...closed, title: "LayerTableRow" },
);

export const LayerTable = t.Object(
  {
    api_version: t.String(),
    status: t.Literal("experimental"),
    provider: t.String(),
    data_kind: t.Union([t.Literal("observed"), t.Literal("derived"), t.Literal("mixed")], {
      description: "observed: every row is a laboratory observation; derived: every row is computed from one; mixed: both (each row's data_kind says which).",
    }),
    query: LayerTableQuery,
    cache: CacheMetadata,
    truncated: t.Boolean({ description: "True when more pedons lie in the box after this page: follow `next`." }),
    next: nullable(t.String({ description: 'The URL of the next page; null on the last. Also a Link header with rel="next".' })),
    pedon_count: Type.Integer({ minimum: 0, description: "Pedons on this page." }),
    rows: t.Array(LayerTableRow, { description: "One row per layer and property, pedons in key order, layers in depth order as GET /v1/pedons/{pedon_key} lists them." }),
    warnings: t.Array(t.String()),
  },
  { ...closed, title: "LayerTable" },
);

export const LAYER_TABLE_MODELS = { LayerTableQuery, LayerTableRow, LayerTable };
