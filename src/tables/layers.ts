/**
 * GET /v1/pedons/layers as a table: the JSON's rows as they are (one per layer and property), with the
 * provider and retrieval time on each; the answer's warnings once, on the first row only (a tidy
 * table: docs/decisions.md#csv-warning-codes), since they speak of the page, not of a row.
 */
import { toCsv, type Column } from "./csv";
import { joinTransformations, joinWarnings } from "./flatten";

export interface LayerTableCells {
  provider: string;
  query: { bbox: readonly number[] };
  cache: { stored_at: string };
  rows: readonly LayerRowCells[];
  warnings: readonly string[];
}

/** `retrievedAt`: when Loam's source read the layers (docs/decisions.md#retrieved-at), not when the page was first asked. */
/** A row's cells, and its transformations (made into text). */
type LayerRowCells = Record<string, unknown> & { transformations?: readonly { operation: string; formula: string; from_unit: string; to_unit: string }[] };

type Row = { row: LayerRowCells; answer: LayerTableCells; first: boolean; retrievedAt: string };

const cell = (name: string): Column<Row> => [name, ({ row }) => row[name] as string | number | null];

export const LAYER_TABLE_COLUMNS: readonly Column<Row>[] = [
  ...[
    "pedon_key",
    "layer_key",
    "depth_top_cm",
    "depth_bottom_cm",
    "horizon_designation",
    "layer_type",
    "property",
    "value",
    "reported_value",
    "value_qualifier",
    "reporting_limit",
    "unit",
    "method_code",
    "measurement_method",
    "original_column",
    "data_kind",
  ].map(cell),
  // How a derived value was made from reported_value (organic matter = organic carbon x 1.724).
  ["transformations", ({ row }) => joinTransformations((row.transformations ?? []) as Parameters<typeof joinTransformations>[0])],
  ["provider", ({ answer }) => answer.provider],
  ["retrieved_at", ({ retrievedAt }) => retrievedAt],
  ["warnings", ({ answer, first }) => (first ? joinWarnings([], answer.warnings) : null)],
];

export function layerTableCsv(answer: LayerTableCells, retrievedAt: string = answer.cache.stored_at): string {
  return toCsv(LAYER_TABLE_COLUMNS, answer.rows.map((row, i) => ({ row, answer, first: i === 0, retrievedAt })));
}
