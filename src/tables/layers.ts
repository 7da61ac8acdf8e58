/**
 * GET /v1/pedons/layers as a table: the JSON's rows as they are (one per layer and property), with the
 * provider and retrieval time on each; the answer's warnings once, on the first row only (a tidy
 * table: docs/decisions.md#csv-warning-codes), since they speak of the page, not of a row.
 */
import { toCsv, type Cell, type Column } from "./csv";
import { CACHE_WHY, deriveColumns, ENVELOPE_OMITTED, type Extra, type TableSpec } from "./derive";
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

/**
 * The members of a row (LayerTableRow, src/pedons/layers-model.ts), as the JSON names them, in today's
 * order (docs/api.md). Listed here, not read from the model: the model is a feature's, which this room
 * does not import (docs/architecture.md#rooms); test/tables/derived-columns.test.ts holds this list
 * to the model, so a member added there fails until it is a column here or declared omitted.
 */
const ROW_MEMBERS = [
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
] as const;

/** A member whose column takes the name every CSV gives the same thing (docs/decisions.md#csv-columns): the property is `property_id`. */
const COLUMN_NAMES: Partial<Record<(typeof ROW_MEMBERS)[number], string>> = { property: "property_id" };

export const LAYER_TABLE_SPEC: TableSpec<Row> = {
  parts: [],
  extra: [
    ...ROW_MEMBERS.map((name): Extra<Row> => [COLUMN_NAMES[name] ?? name, ({ row }) => row[name] as Cell, "a row's own member, as the JSON names it", `rows[].${name}`]),
    // How a derived value was made from reported_value (organic matter = organic carbon x 1.724).
    ["transformations", ({ row }) => joinTransformations((row.transformations ?? []) as Parameters<typeof joinTransformations>[0]), "a row's transformations as text", "rows[].transformations"],
    ["provider", ({ answer }) => answer.provider, "the table's provider, on every row", "provider"],
    ["retrieved_at", ({ retrievedAt }) => retrievedAt, "when the source read the layers (docs/decisions.md#retrieved-at), not the cache's storage time"],
    ["answer_warnings", ({ answer, first }) => (first ? joinWarnings([], answer.warnings) : null), "the page's warnings, once, on the first row (docs/decisions.md#csv-warning-codes)", "warnings"],
  ],
  bodyOmit: {
    ...ENVELOPE_OMITTED,
    data_kind: "each row's data_kind is the column",
    query: "what was asked: the request says it",
    truncated: "a CSV holds every page (docs/decisions.md#csv-whole)",
    next: "a CSV holds every page (docs/decisions.md#csv-whole)",
    pedon_count: "the distinct pedon_key values say it",
    cache: CACHE_WHY,
  },
};

export const LAYER_TABLE_COLUMNS: readonly Column<Row>[] = deriveColumns(LAYER_TABLE_SPEC);

export function layerTableCsv(answer: LayerTableCells, retrievedAt: string = answer.cache.stored_at): string {
  return toCsv(LAYER_TABLE_COLUMNS, answer.rows.map((row, i) => ({ row, answer, first: i === 0, retrievedAt })));
}
