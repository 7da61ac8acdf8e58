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
import { MapUnitSummary } from "../domain/observation";
import { PropertySummary } from "../aggregation/model";
import { toCsv, type Column } from "./csv";
import { CACHE_WHY, deriveColumns, ENVELOPE_OMITTED, type TableSpec } from "./derive";
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

/** The map unit's (the spec's MapUnitSummary) and each summary's members (PropertySummary), the summary's options and source by their own names. */
export const SUMMARY_SPEC: TableSpec<SummaryRow> = {
  parts: [
    { model: MapUnitSummary, at: "map_unit", of: (row) => row.mapUnit },
    {
      model: PropertySummary,
      at: "summaries[]",
      of: (row) => row.summary,
      prefix: { options: "", source: "" },
      cells: {
        contributions: ({ summary: s }) => joinContributions(s.contributions),
        transformations: ({ summary: s }) => joinTransformations(s.transformations),
        // The summary's own warnings as codes (docs/decisions.md#csv-warning-codes); the answer's once, on the first row.
        warnings: ({ summary: s, answer }) => rowWarnings(s.warnings, answer.warnings),
      },
    },
  ],
  // SummaryResponse's own members (src/summaries/model.ts: a feature's model, which this room does not import).
  extra: [
    ["component_count", ({ mapUnit }) => mapUnit.components.length, "the map unit's components as a count: the list is in the JSON", "map_unit.components"],
    ["contribution_count", ({ summary: s }) => s.contributions.length, "how many components made the value, beside contributions (which names them)"],
    ["data_kind", ({ answer }) => answer.data_kind, "the answer's data_kind, on every row", "data_kind"],
    ["answer_warnings", ({ answer, index }) => onFirstRow(index, answer.warnings), "the answer's warnings, once, on the first row (docs/decisions.md#csv-warning-codes)", "warnings"],
  ],
  bodyOmit: {
    ...ENVELOPE_OMITTED,
    query: "what was asked: the request says it",
    "map_unit.provider": "each summary's provider is the column",
    cache: CACHE_WHY,
  },
  // Today's order (docs/api.md): the map unit first, the summary, then its provenance and warnings.
  order: [
    "map_unit_key", "map_unit_symbol", "map_unit_name", "area_symbol", "component_count",
    "property_id", "property_name", "method", "value", "category", "unit", "depth_top_cm", "depth_bottom_cm", "percent_of_map_unit",
    "include_minors", "miscellaneous_areas", "contribution_count", "contributions", "data_kind",
    "provider", "organization", "retrieved_at", "original_property_name", "citation", "source_url", "transformations", "warnings", "answer_warnings",
  ],
};

export const SUMMARY_COLUMNS: readonly Column<SummaryRow>[] = deriveColumns(SUMMARY_SPEC);

export function summaryRows(answer: SummaryBodyCells): SummaryRow[] {
  const mapUnit = answer.map_unit;
  if (mapUnit === null) return [];
  return answer.summaries.map((summary, index) => ({ summary, mapUnit, answer, index }));
}

export function summaryCsv(answer: SummaryBodyCells): string {
  return toCsv(SUMMARY_COLUMNS, summaryRows(answer));
}
