/**
 * GET /v1/soil/summary and GET /v1/soil/mapunits/{map_unit_key} as tables: one row per summary (a
 * property's one number or class for the map unit over the depth interval). The row carries the map
 * unit it describes, the method and interval, the source, the per-component contributions and the
 * formulas as text, the summary's own warnings as short codes and the answer's warnings once, on the
 * first row (docs/decisions.md#csv-warning-codes). A body without a map unit (no map unit at
 * the point) is the header alone; its warning is in the JSON.
 *
 * The body types below are the fields this table reads (by the names of SummaryResponse in
 * src/summaries/model.ts); the type checker holds the model to them where the routes pass the table
 * to `send`, and the table stays readable without the feature's models.
 */
import { toCsv, type Column } from "./csv";
import { joinTransformations, onFirstRow, rowWarnings } from "./flatten";

export interface SummaryContributionCells {
  component_key: string;
  component_name: string;
  component_percent: number | null;
  value: number | null;
  category: string | null;
  covered_depth: { top_cm: number; bottom_cm: number } | null;
  horizon_keys: readonly string[];
}

export interface SummaryCells {
  property: { id: string; name: string };
  method: string;
  value: number | null;
  category: string | null;
  unit: string | null;
  depth: { top_cm: number; bottom_cm: number };
  options: { include_minors: boolean; miscellaneous_areas: string };
  percent_of_map_unit: number;
  contributions: readonly SummaryContributionCells[];
  transformations: readonly { operation: string; from_unit: string; to_unit: string; formula: string }[];
  source: {
    provider: string;
    organization: string;
    retrieved_at: string;
    original_property_name: string | null;
    citation: string;
    source_url: string;
  };
  warnings: readonly string[];
}

export interface MapUnitCells {
  provider: string;
  area_symbol: string;
  map_unit_key: string;
  map_unit_symbol: string;
  map_unit_name: string;
  components: readonly unknown[];
}

export interface SummaryBodyCells {
  data_kind: string;
  map_unit: MapUnitCells | null;
  summaries: readonly SummaryCells[];
  warnings: readonly string[];
}

type SummaryRow = { summary: SummaryCells; mapUnit: MapUnitCells; answer: SummaryBodyCells; index: number };

/** "Clarion [20424631] 85 %: 21 (0-23 cm)", joined: the weights and values behind the number. */
export function joinContributions(contributions: readonly SummaryContributionCells[]): string {
  return contributions
    .map((c) => {
      const shown = c.value ?? c.category ?? "no data";
      const percent = c.component_percent === null ? "? %" : `${c.component_percent} %`;
      const depth = c.covered_depth ? ` (${c.covered_depth.top_cm}-${c.covered_depth.bottom_cm} cm)` : "";
      return `${c.component_name} [${c.component_key}] ${percent}: ${shown}${depth}`;
    })
    .join(" | ");
}

export const SUMMARY_COLUMNS: readonly Column<SummaryRow>[] = [
  ["map_unit_key", ({ mapUnit }) => mapUnit.map_unit_key],
  ["map_unit_symbol", ({ mapUnit }) => mapUnit.map_unit_symbol],
  ["map_unit_name", ({ mapUnit }) => mapUnit.map_unit_name],
  ["area_symbol", ({ mapUnit }) => mapUnit.area_symbol],
  ["component_count", ({ mapUnit }) => mapUnit.components.length],
  ["property_id", ({ summary: s }) => s.property.id],
  ["property_name", ({ summary: s }) => s.property.name],
  ["method", ({ summary: s }) => s.method],
  // A number for numeric properties, a class for class properties; the other is empty.
  ["value", ({ summary: s }) => s.value],
  ["category", ({ summary: s }) => s.category],
  ["unit", ({ summary: s }) => s.unit],
  ["depth_top_cm", ({ summary: s }) => s.depth.top_cm],
  ["depth_bottom_cm", ({ summary: s }) => s.depth.bottom_cm],
  ["percent_of_map_unit", ({ summary: s }) => s.percent_of_map_unit],
  ["include_minors", ({ summary: s }) => String(s.options.include_minors)],
  ["miscellaneous_areas", ({ summary: s }) => s.options.miscellaneous_areas],
  ["contribution_count", ({ summary: s }) => s.contributions.length],
  ["contributions", ({ summary: s }) => joinContributions(s.contributions)],
  ["data_kind", ({ answer }) => answer.data_kind],
  ["provider", ({ summary: s }) => s.source.provider],
  ["organization", ({ summary: s }) => s.source.organization],
  ["retrieved_at", ({ summary: s }) => s.source.retrieved_at],
  ["original_property_name", ({ summary: s }) => s.source.original_property_name],
  ["citation", ({ summary: s }) => s.source.citation],
  ["source_url", ({ summary: s }) => s.source.source_url],
  ["transformations", ({ summary: s }) => joinTransformations(s.transformations)],
  // The summary's own warnings as codes (docs/decisions.md#csv-warning-codes); the answer's once, on the first row.
  ["warnings", ({ summary: s, answer }) => rowWarnings(s.warnings, answer.warnings)],
  ["answer_warnings", ({ answer, index }) => onFirstRow(index, answer.warnings)],
];

export function summaryRows(answer: SummaryBodyCells): SummaryRow[] {
  const mapUnit = answer.map_unit;
  if (mapUnit === null) return [];
  return answer.summaries.map((summary, index) => ({ summary, mapUnit, answer, index }));
}

export function summaryCsv(answer: SummaryBodyCells): string {
  return toCsv(SUMMARY_COLUMNS, summaryRows(answer));
}
