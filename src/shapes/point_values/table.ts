/**
 * GET /v1/soil/modeled as CSV: one row per observation. The columns are derived from the observation
 * model (GridObservation: every scalar leaf, nested names joined with `_`: src/tables/derive.ts), never
 * restated by hand, so a field added to the model is a column; transformations and warnings are joined
 * as the point table joins them (docs/architecture.md#tables).
 */
import type { Static } from "@sinclair/typebox";
import { GridObservation, type Observation } from "../../domain/observation";
import { toCsv, type Column } from "../../tables/csv";
import { CACHE_WHY, deriveColumns, ENVELOPE_OMITTED, type TableSpec } from "../../tables/derive";
import { joinTransformations, onFirstRow, rowWarnings } from "../../tables/flatten";
import type { CsvTable } from "../../http/response";

type Obs = Static<typeof Observation>;
type Row = { observation: Obs; warnings: readonly string[]; index: number };

export const MODELED_SPEC: TableSpec<Row> = {
  parts: [
    {
      model: GridObservation,
      at: "observations[]",
      of: (row) => row.observation,
      // The source's and the point's members by their own names, as the location CSV has them (provider, retrieved_at, latitude: docs/decisions.md#csv-columns).
      prefix: { source: "", location: "" },
      cells: {
        transformations: ({ observation }) => joinTransformations(observation.transformations),
        warnings: ({ observation, warnings }) => rowWarnings(observation.warnings, warnings),
      },
    },
  ],
  extra: [["answer_warnings", ({ warnings, index }) => onFirstRow(index, warnings), "the answer's warnings, once, on the first row (docs/decisions.md#csv-warning-codes)", "warnings"]],
  // ModeledResponse (./model.ts) beyond its observations.
  bodyOmit: { ...ENVELOPE_OMITTED, query: "what was asked: the request says it", data_kind: "each observation's data_kind is the column", cache: CACHE_WHY },
};

export const MODELED_COLUMNS: readonly Column<Row>[] = deriveColumns(MODELED_SPEC);

type ModeledBody = { observations: readonly Obs[]; warnings: readonly string[]; query: { latitude: number; longitude: number } };

export const MODELED_TABLE: CsvTable<ModeledBody> = {
  render: (body) => toCsv(MODELED_COLUMNS, body.observations.map((observation, index) => ({ observation, warnings: body.warnings, index }))),
  fileName: (body) => `loam-soil-modeled_${body.query.latitude}_${body.query.longitude}.csv`,
};
