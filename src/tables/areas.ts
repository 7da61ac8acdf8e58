/**
 * GET /v1/soil/aoi and GET /v1/soil/points as tables (docs/decisions.md#areas).
 *
 * - The area: one row per map unit and property (scope `map_unit`: the map unit, its area and
 *   percent of the area, its summary), then one row per property for the whole area (scope `aoi`:
 *   the area-weighted value, the map units behind it). An area without map units is its `aoi` rows.
 * - The points: one row per point and property, the point's index and coordinates first; a point in
 *   no map unit still has its rows (no value), with its warning.
 *
 * The body types are the fields these tables read (by the names of src/areas/model.ts).
 */
import { toCsv, type Column } from "./csv";
import { joinTransformations, onFirstRow, ownWarnings, WARNING_SEPARATOR } from "./flatten";
import { joinContributions, type SummaryCells } from "./summary";

interface AoiCells {
  query: { properties: readonly string[] };
  aoi: { area_ha: number; area_acres: number; mapped_percent: number };
  map_units: readonly {
    provider: string;
    area_symbol: string | null;
    map_unit_key: string;
    map_unit_symbol: string | null;
    map_unit_name: string | null;
    area_ha: number;
    area_acres: number;
    percent_of_aoi: number;
    summaries: readonly SummaryCells[];
  }[];
  summaries: readonly {
    property: { id: string; name: string };
    method: string;
    value: number | null;
    category: string | null;
    unit: string | null;
    depth: { top_cm: number; bottom_cm: number };
    percent_of_aoi: number;
    contributions: readonly { map_unit_key: string; map_unit_symbol: string | null; percent_of_aoi: number; value: number | null; category: string | null }[];
    transformations: readonly { operation: string; from_unit: string; to_unit: string; formula: string }[];
    warnings: readonly string[];
  }[];
  source: { provider: string; organization: string; retrieved_at: string; citation: string; source_url: string };
  warnings: readonly string[];
}

/** One cell set of a row of the area table, whichever its scope. */
interface AoiRow {
  scope: "map_unit" | "aoi";
  mapUnit: AoiCells["map_units"][number] | null;
  property: { id: string; name: string };
  method: string;
  value: number | null;
  category: string | null;
  unit: string | null;
  depth: { top_cm: number; bottom_cm: number };
  /** percent_of_map_unit (map unit rows) or the percent of the area behind the value (aoi rows). */
  basis: number;
  contributions: string;
  transformations: string;
  retrievedAt: string;
  warnings: readonly string[];
  answer: AoiCells;
  /** The row's place in the table: the answer's warnings go on the first. */
  index: number;
}

const AOI_COLUMNS: readonly Column<AoiRow>[] = [
  ["scope", (r) => r.scope],
  ["map_unit_key", (r) => r.mapUnit?.map_unit_key],
  ["map_unit_symbol", (r) => r.mapUnit?.map_unit_symbol],
  ["map_unit_name", (r) => r.mapUnit?.map_unit_name],
  ["area_symbol", (r) => r.mapUnit?.area_symbol],
  ["area_ha", (r) => (r.mapUnit ? r.mapUnit.area_ha : r.answer.aoi.area_ha)],
  ["area_acres", (r) => (r.mapUnit ? r.mapUnit.area_acres : r.answer.aoi.area_acres)],
  ["percent_of_aoi", (r) => (r.mapUnit ? r.mapUnit.percent_of_aoi : r.answer.aoi.mapped_percent)],
  ["property_id", (r) => r.property.id],
  ["property_name", (r) => r.property.name],
  ["method", (r) => r.method],
  ["value", (r) => r.value],
  ["category", (r) => r.category],
  ["unit", (r) => r.unit],
  ["depth_top_cm", (r) => r.depth.top_cm],
  ["depth_bottom_cm", (r) => r.depth.bottom_cm],
  ["value_basis_percent", (r) => r.basis],
  ["contributions", (r) => r.contributions],
  ["provider", (r) => r.answer.source.provider],
  ["organization", (r) => r.answer.source.organization],
  ["retrieved_at", (r) => r.retrievedAt],
  ["citation", (r) => r.answer.source.citation],
  ["source_url", (r) => r.answer.source.source_url],
  ["transformations", (r) => r.transformations],
  // The row's own warnings in full (they name map units), the answer's once (docs/decisions.md#csv-warning-codes).
  ["warnings", (r) => ownWarnings(r.warnings, r.answer.warnings).join(WARNING_SEPARATOR)],
  ["answer_warnings", (r) => onFirstRow(r.index, r.answer.warnings)],
];

function aoiRows(answer: AoiCells): AoiRow[] {
  const rows: Omit<AoiRow, "index">[] = [];
  for (const mapUnit of answer.map_units) {
    for (const s of mapUnit.summaries) {
      rows.push({
        scope: "map_unit",
        mapUnit,
        property: s.property,
        method: s.method,
        value: s.value,
        category: s.category,
        unit: s.unit,
        depth: s.depth,
        basis: s.percent_of_map_unit,
        contributions: joinContributions(s.contributions),
        transformations: joinTransformations(s.transformations),
        retrievedAt: s.source.retrieved_at,
        warnings: s.warnings,
        answer,
      });
    }
  }
  for (const s of answer.summaries) {
    rows.push({
      scope: "aoi",
      mapUnit: null,
      property: s.property,
      method: s.method,
      value: s.value,
      category: s.category,
      unit: s.unit,
      depth: s.depth,
      basis: s.percent_of_aoi,
      contributions: s.contributions.map((c) => `${c.map_unit_symbol ?? "?"} [${c.map_unit_key}] ${c.percent_of_aoi} %: ${c.value ?? c.category ?? "no data"}`).join(" | "),
      transformations: joinTransformations(s.transformations),
      retrievedAt: answer.source.retrieved_at,
      warnings: s.warnings,
      answer,
    });
  }
  return rows.map((row, index) => ({ ...row, index }));
}

export function aoiCsv(answer: AoiCells): string {
  return toCsv(AOI_COLUMNS, aoiRows(answer));
}

export type { AoiCells };

export interface PointsCells {
  query: { properties: readonly string[]; depth_top_cm: number; depth_bottom_cm: number };
  points: readonly {
    index: number;
    latitude: number;
    longitude: number;
    map_unit: { area_symbol: string; map_unit_key: string; map_unit_symbol: string; map_unit_name: string } | null;
    summaries: readonly SummaryCells[];
    warnings: readonly string[];
  }[];
  warnings: readonly string[];
}

type PointRow = { point: PointsCells["points"][number]; propertyId: string; summary: SummaryCells | null; answer: PointsCells; index: number };

const POINT_COLUMNS: readonly Column<PointRow>[] = [
  ["point_index", (r) => r.point.index],
  ["latitude", (r) => r.point.latitude],
  ["longitude", (r) => r.point.longitude],
  ["map_unit_key", (r) => r.point.map_unit?.map_unit_key],
  ["map_unit_symbol", (r) => r.point.map_unit?.map_unit_symbol],
  ["map_unit_name", (r) => r.point.map_unit?.map_unit_name],
  ["area_symbol", (r) => r.point.map_unit?.area_symbol],
  ["property_id", (r) => r.summary?.property.id ?? r.propertyId],
  ["property_name", (r) => r.summary?.property.name],
  ["method", (r) => r.summary?.method],
  ["value", (r) => r.summary?.value],
  ["category", (r) => r.summary?.category],
  ["unit", (r) => r.summary?.unit],
  ["depth_top_cm", (r) => r.summary?.depth.top_cm ?? r.answer.query.depth_top_cm],
  ["depth_bottom_cm", (r) => r.summary?.depth.bottom_cm ?? r.answer.query.depth_bottom_cm],
  ["percent_of_map_unit", (r) => r.summary?.percent_of_map_unit],
  ["contributions", (r) => (r.summary ? joinContributions(r.summary.contributions) : null)],
  ["provider", (r) => r.summary?.source.provider],
  ["organization", (r) => r.summary?.source.organization],
  ["retrieved_at", (r) => r.summary?.source.retrieved_at],
  ["original_property_name", (r) => r.summary?.source.original_property_name],
  ["citation", (r) => r.summary?.source.citation],
  ["source_url", (r) => r.summary?.source.source_url],
  ["transformations", (r) => (r.summary ? joinTransformations(r.summary.transformations) : null)],
  ["warnings", (r) => ownWarnings([...new Set([...r.point.warnings, ...(r.summary?.warnings ?? [])])], r.answer.warnings).join(WARNING_SEPARATOR)],
  ["answer_warnings", (r) => onFirstRow(r.index, r.answer.warnings)],
];

function pointRows(answer: PointsCells): PointRow[] {
  return answer.points
    .flatMap((point): Omit<PointRow, "index">[] =>
      point.summaries.length > 0
        ? point.summaries.map((summary) => ({ point, propertyId: summary.property.id, summary, answer }))
        : answer.query.properties.map((propertyId) => ({ point, propertyId, summary: null, answer })),
    )
    .map((row, index) => ({ ...row, index }));
}

export function pointsCsv(answer: PointsCells): string {
  return toCsv(POINT_COLUMNS, pointRows(answer));
}
