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
import { MapUnitSummary } from "../domain/observation";
import { PropertySummary } from "../aggregation/model";
import { toCsv, type Column } from "./csv";
import { CACHE_WHY, deriveColumns, ENVELOPE_OMITTED, type TableSpec } from "./derive";
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

/** Why the area's source is read once for the report, not per summary. */
const ONE_SOURCE = "the report's one source (source.*) is the column";

/**
 * A row of either scope: the map unit's (the spec's MapUnitSummary) and a summary's members
 * (PropertySummary; on the area's rows the area summary's members of the same names), then the area
 * figures, the source and warnings.
 */
export const AOI_SPEC: TableSpec<AoiRow> = {
  parts: [
    { model: MapUnitSummary, at: "map_units[]", of: (r) => r.mapUnit },
    {
      model: PropertySummary,
      at: "map_units[].summaries[]",
      alsoAt: ["summaries[]"],
      of: (r) => r,
      prefix: { source: "" },
      // percent_of_map_unit on a map unit's rows, the area summary's percent_of_aoi on the area's: the weight behind the value.
      rename: { percent_of_map_unit: "value_basis_percent" },
      cells: {
        percent_of_map_unit: (r) => r.basis,
        "source.retrieved_at": (r) => r.retrievedAt,
        // The row's own warnings in full (they name map units), the answer's once (docs/decisions.md#csv-warning-codes).
        warnings: (r) => ownWarnings(r.warnings, r.answer.warnings).join(WARNING_SEPARATOR),
      },
      omit: {
        options: "the query's options, the same on every row: in the JSON's query",
        "source.provider": ONE_SOURCE,
        "source.organization": ONE_SOURCE,
        "source.original_property_name": "not a column of the area table (docs/api.md): in the JSON",
        "source.citation": ONE_SOURCE,
        "source.source_url": ONE_SOURCE,
      },
    },
  ],
  // AoiReport's own members (src/areas/model.ts: a feature's model, which this room does not import).
  extra: [
    ["scope", (r) => r.scope, "which rows: a map unit's (map_unit) or the whole area's (aoi)"],
    ["area_ha", (r) => (r.mapUnit ? r.mapUnit.area_ha : r.answer.aoi.area_ha), "the map unit's area in the area, or the area's", "map_units[].area_ha"],
    ["area_acres", (r) => (r.mapUnit ? r.mapUnit.area_acres : r.answer.aoi.area_acres), "the same in acres", "map_units[].area_acres"],
    ["percent_of_aoi", (r) => (r.mapUnit ? r.mapUnit.percent_of_aoi : r.answer.aoi.mapped_percent), "the map unit's percent of the area, or the mapped percent", "map_units[].percent_of_aoi"],
    ["provider", (r) => r.answer.source.provider, "the report's source, on every row", "source.provider"],
    ["organization", (r) => r.answer.source.organization, "the report's source, on every row", "source.organization"],
    ["citation", (r) => r.answer.source.citation, "the report's source, on every row", "source.citation"],
    ["source_url", (r) => r.answer.source.source_url, "the report's source, on every row", "source.source_url"],
    ["answer_warnings", (r) => onFirstRow(r.index, r.answer.warnings), "the answer's warnings, once, on the first row (docs/decisions.md#csv-warning-codes)", "warnings"],
  ],
  bodyOmit: {
    ...ENVELOPE_OMITTED,
    query: "what was asked: the request says it",
    data_kind: "always derived",
    "aoi.area_ha": "the area's rows' area_ha",
    "aoi.area_acres": "the area's rows' area_acres",
    "aoi.mapped_percent": "the area's rows' percent_of_aoi",
    "aoi.vertex_count": "a fact of the polygon asked: in the JSON",
    "map_units[].provider": "the report's source provider is the column",
    "map_units[].polygon_count": "how many delineations: in the JSON",
    "summaries[].percent_of_aoi": "the area's rows' value_basis_percent",
    "source.kind": "where the polygons were read (snapshot or live): in the JSON",
    "source.retrieved_at": "the area's rows' retrieved_at",
    cache: CACHE_WHY,
  },
  // Today's order (docs/api.md): the scope and map unit first, the summary, then the provenance and warnings.
  order: [
    "scope", "map_unit_key", "map_unit_symbol", "map_unit_name", "area_symbol", "area_ha", "area_acres", "percent_of_aoi",
    "property_id", "property_name", "method", "value", "category", "unit", "depth_top_cm", "depth_bottom_cm", "value_basis_percent", "contributions",
    "provider", "organization", "retrieved_at", "citation", "source_url", "transformations", "warnings", "answer_warnings",
  ],
};

const AOI_COLUMNS: readonly Column<AoiRow>[] = deriveColumns(AOI_SPEC);

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

/** Each point's map unit (the spec's MapUnitSummary) and summaries (PropertySummary); a point without a summary keeps its property and interval. */
export const POINTS_SPEC: TableSpec<PointRow> = {
  parts: [
    { model: MapUnitSummary, at: "points[].map_unit", of: (r) => r.point.map_unit },
    {
      model: PropertySummary,
      at: "points[].summaries[]",
      of: (r) => r.summary,
      prefix: { source: "" },
      cells: {
        "property.id": (r) => r.summary?.property.id ?? r.propertyId,
        "depth.top_cm": (r) => r.summary?.depth.top_cm ?? r.answer.query.depth_top_cm,
        "depth.bottom_cm": (r) => r.summary?.depth.bottom_cm ?? r.answer.query.depth_bottom_cm,
        contributions: (r) => (r.summary ? joinContributions(r.summary.contributions) : null),
        transformations: (r) => (r.summary ? joinTransformations(r.summary.transformations) : null),
        // The point's own warnings and its summary's, in full, without the answer's (docs/decisions.md#csv-warning-codes).
        warnings: (r) => ownWarnings([...new Set([...r.point.warnings, ...(r.summary?.warnings ?? [])])], r.answer.warnings).join(WARNING_SEPARATOR),
      },
      omit: { options: "the query's options, the same on every row: in the JSON's query" },
    },
  ],
  // PointItem's and PointsResponse's own members (src/areas/model.ts: a feature's model, which this room does not import).
  extra: [
    ["point_index", (r) => r.point.index, "the point's position in the request, on each of its rows", "points[].index"],
    ["latitude", (r) => r.point.latitude, "the point, on each of its rows", "points[].latitude"],
    ["longitude", (r) => r.point.longitude, "the point, on each of its rows", "points[].longitude"],
    ["answer_warnings", (r) => onFirstRow(r.index, r.answer.warnings), "the answer's warnings, once, on the first row (docs/decisions.md#csv-warning-codes)", "warnings"],
  ],
  bodyOmit: {
    ...ENVELOPE_OMITTED,
    query: "what was asked: the request says it",
    data_kind: "always derived",
    "points[].map_unit.provider": "each summary's provider is the column",
    "points[].warnings": "read into each of the point's rows' warnings, with its summary's",
    cache: CACHE_WHY,
  },
  // Today's order (docs/api.md): the point and its map unit first, the summary, then its provenance and warnings.
  order: [
    "point_index", "latitude", "longitude", "map_unit_key", "map_unit_symbol", "map_unit_name", "area_symbol",
    "property_id", "property_name", "method", "value", "category", "unit", "depth_top_cm", "depth_bottom_cm", "percent_of_map_unit", "contributions",
    "provider", "organization", "retrieved_at", "original_property_name", "citation", "source_url", "transformations", "warnings", "answer_warnings",
  ],
};

const POINT_COLUMNS: readonly Column<PointRow>[] = deriveColumns(POINTS_SPEC);

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
