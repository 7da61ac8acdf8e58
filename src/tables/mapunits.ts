/**
 * GET /v1/soil/mapunits?bbox=... as a table: one row per polygon feature, with its map unit and, when
 * the request named a property, the summary that colours it. The polygon itself is not a cell (a
 * spreadsheet cannot use it; GIS reads the GeoJSON): a row says which map unit a polygon in the box
 * belongs to. `truncated` is a column, as for pedons, so a filtered table still shows it is cut short.
 *
 * The body types are the fields this table reads (by the names of MapUnitCollection in
 * src/mapunits/model.ts); the type checker holds the model to them where the route passes the table
 * to `send`.
 */
import { MapUnitSummary } from "../domain/observation";
import { toCsv, type Column } from "./csv";
import { CACHE_WHY, deriveColumns, type TableSpec } from "./derive";
import { onFirstRow } from "./flatten";

export interface MapUnitFeatureCells {
  id?: string | number;
  properties: {
    map_unit_key: string;
    map_unit_symbol: string | null;
    map_unit_name: string | null;
    area_symbol: string | null;
    summary?: { value: number | null; category: string | null; unit: string | null; percent_of_map_unit?: number } | null;
    /** Flat summary members: `<id>` and `<id>_percent_of_map_unit` per summarized property. */
    [member: string]: unknown;
  };
}

export interface MapUnitCollectionCells {
  provider: string;
  /** The effective query: the summarized property and method are null when none was asked for. */
  query: { bbox: readonly number[]; property: string | null; properties?: readonly string[]; method: string | null; depth_top_cm: number; depth_bottom_cm: number };
  features: readonly MapUnitFeatureCells[];
  truncated: boolean;
  cache: { stored_at: string };
  warnings: readonly string[];
}

/** `retrievedAt`: when Loam's source read the polygons (docs/decisions.md#retrieved-at); `index`: the answer's warnings go on the first row only. */
type FeatureRow = { feature: MapUnitFeatureCells; answer: MapUnitCollectionCells; index: number; retrievedAt: string };

/** A polygon's map unit (the spec's MapUnitSummary), with the summary that colours it and the list's own members. */
export const MAP_UNIT_FEATURE_SPEC: TableSpec<FeatureRow> = {
  parts: [{ model: MapUnitSummary, at: "features[].properties", of: (row) => row.feature.properties }],
  // MapUnitCollection's own members (src/mapunits/model.ts: a feature's model, which this room does not import).
  extra: [
    ["feature_id", ({ feature }) => feature.id, "the polygon's key in its source: a row says which polygon", "features[].id"],
    // What the summary cells are, on every row (they mean nothing without it); empty without a property.
    ["summary_property", ({ answer }) => answer.query.property, "what the summary cells summarize, on every row", "query.property"],
    ["summary_method", ({ answer }) => answer.query.method, "how, on every row", "query.method"],
    ["summary_depth_top_cm", ({ answer }) => (answer.query.property === null ? null : answer.query.depth_top_cm), "over which interval; empty without a property", "query.depth_top_cm"],
    ["summary_depth_bottom_cm", ({ answer }) => (answer.query.property === null ? null : answer.query.depth_bottom_cm), "over which interval; empty without a property", "query.depth_bottom_cm"],
    ["summary_value", ({ feature: f }) => f.properties.summary?.value, "the summary that colours the polygon", "features[].properties.summary.value"],
    ["summary_category", ({ feature: f }) => f.properties.summary?.category, "the same, for a class property", "features[].properties.summary.category"],
    ["summary_unit", ({ feature: f }) => f.properties.summary?.unit, "its unit", "features[].properties.summary.unit"],
    ["provider", ({ answer }) => answer.provider, "the list's provider, on every row", "provider"],
    ["truncated", ({ answer }) => answer.truncated, "a column, as for pedons, so a filtered table still shows it is cut short", "truncated"],
    ["retrieved_at", ({ retrievedAt }) => retrievedAt, "when the source read the polygons (docs/decisions.md#retrieved-at), not the cache's storage time"],
    // The answer's warnings speak of the collection, not of a row: once (docs/decisions.md#csv-warning-codes).
    ["answer_warnings", ({ answer, index }) => onFirstRow(index, answer.warnings), "the list's warnings, once, on the first row", "warnings"],
  ],
  bodyOmit: {
    type: "always FeatureCollection",
    "query.bbox": "what was asked: the request (and the file name) says it",
    "query.provider": "the provider column says it",
    "query.limit": "a CSV holds every page (docs/decisions.md#csv-whole)",
    "query.properties": "the flat columns' names (mapUnitColumns)",
    "query.include_minors": "the query's options: in the JSON's query",
    "query.miscellaneous_areas": "the query's options: in the JSON's query",
    "features[].type": "always Feature",
    "features[].geometry": "a spreadsheet cannot use the polygon; GIS reads the GeoJSON",
    "features[].properties.summary.percent_of_map_unit": "the flat <id>_percent_of_map_unit column says it",
    next: "a CSV holds every page (docs/decisions.md#csv-whole)",
    cache: CACHE_WHY,
  },
  // Today's order (docs/api.md): the polygon's id first, the map unit, the summary, then the list's members.
  order: [
    "feature_id", "map_unit_key", "map_unit_symbol", "map_unit_name", "area_symbol", "summary_property", "summary_method", "summary_depth_top_cm",
    "summary_depth_bottom_cm", "summary_value", "summary_category", "summary_unit", "provider", "truncated", "retrieved_at", "answer_warnings",
  ],
};

export const MAP_UNIT_FEATURE_COLUMNS: readonly Column<FeatureRow>[] = deriveColumns(MAP_UNIT_FEATURE_SPEC);

function mapUnitFeatureRows(answer: MapUnitCollectionCells, retrievedAt: string = answer.cache.stored_at): FeatureRow[] {
  return answer.features.map((feature, index) => ({ feature, answer, index, retrievedAt }));
}

const flatCell = (value: unknown) => (typeof value === "number" || typeof value === "string" ? value : null);

/**
 * The columns of one answer: the fixed ones, then per summarized property (several with `properties`)
 * `<id>` (value or class) and `<id>_percent_of_map_unit`, as the GeoJSON's flat members, before the provenance.
 */
export function mapUnitColumns(answer: MapUnitCollectionCells): readonly Column<FeatureRow>[] {
  const ids = answer.query.properties ?? [];
  if (ids.length === 0) return MAP_UNIT_FEATURE_COLUMNS;
  const at = MAP_UNIT_FEATURE_COLUMNS.findIndex(([name]) => name === "provider");
  const flat: Column<FeatureRow>[] = ids.flatMap((id) => [
    [id, ({ feature }) => flatCell(feature.properties[id])] as const,
    [`${id}_percent_of_map_unit`, ({ feature }) => flatCell(feature.properties[`${id}_percent_of_map_unit`])] as const,
  ]);
  return [...MAP_UNIT_FEATURE_COLUMNS.slice(0, at), ...flat, ...MAP_UNIT_FEATURE_COLUMNS.slice(at)];
}

export function mapUnitCollectionCsv(answer: MapUnitCollectionCells, retrievedAt?: string): string {
  return toCsv(mapUnitColumns(answer), mapUnitFeatureRows(answer, retrievedAt));
}
