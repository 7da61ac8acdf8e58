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
import { toCsv, type Column } from "./csv";
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

export const MAP_UNIT_FEATURE_COLUMNS: readonly Column<FeatureRow>[] = [
  ["feature_id", ({ feature }) => feature.id],
  ["map_unit_key", ({ feature: f }) => f.properties.map_unit_key],
  ["map_unit_symbol", ({ feature: f }) => f.properties.map_unit_symbol],
  ["map_unit_name", ({ feature: f }) => f.properties.map_unit_name],
  ["area_symbol", ({ feature: f }) => f.properties.area_symbol],
  // What the summary cells are, on every row (they mean nothing without it); empty without a property.
  ["summary_property", ({ answer }) => answer.query.property],
  ["summary_method", ({ answer }) => answer.query.method],
  ["summary_depth_top_cm", ({ answer }) => (answer.query.property === null ? null : answer.query.depth_top_cm)],
  ["summary_depth_bottom_cm", ({ answer }) => (answer.query.property === null ? null : answer.query.depth_bottom_cm)],
  ["summary_value", ({ feature: f }) => f.properties.summary?.value],
  ["summary_category", ({ feature: f }) => f.properties.summary?.category],
  ["summary_unit", ({ feature: f }) => f.properties.summary?.unit],
  ["provider", ({ answer }) => answer.provider],
  ["truncated", ({ answer }) => answer.truncated],
  ["retrieved_at", ({ retrievedAt }) => retrievedAt],
  // The answer's warnings speak of the collection, not of a row: once (docs/decisions.md#csv-warning-codes).
  ["warnings", ({ answer, index }) => onFirstRow(index, answer.warnings)],
];

export function mapUnitFeatureRows(answer: MapUnitCollectionCells, retrievedAt: string = answer.cache.stored_at): FeatureRow[] {
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
