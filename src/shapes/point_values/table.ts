/**
 * GET /v1/soil/modeled as CSV: one row per observation. The columns are derived from the observation
 * model (GridObservation: every scalar leaf, nested names joined with `_`), never restated by hand, so
 * a field added to the model is a column; transformations and warnings are joined as the point table
 * joins them (docs/architecture.md#tables).
 */
import type { Static, TSchema } from "@sinclair/typebox";
import { GridObservation, type Observation } from "../../domain/observation";
import { toCsv, type Cell, type Column } from "../../tables/csv";
import { joinTransformations, onFirstRow, rowWarnings } from "../../tables/flatten";
import type { CsvTable } from "../../http/response";

type Obs = Static<typeof Observation>;
type Row = { observation: Obs; warnings: readonly string[]; index: number };

const at = (value: unknown, path: readonly string[]): unknown => path.reduce<unknown>((v, key) => (v && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined), value);

/** Every scalar leaf of an object schema, as a path (a union of a scalar and null is a leaf). */
function leaves(schema: TSchema, path: string[] = []): string[][] {
  const properties = (schema as { properties?: Record<string, TSchema> }).properties;
  if (schema.type === "object" && properties) return Object.entries(properties).flatMap(([key, child]) => leaves(child, [...path, key]));
  const variants = (schema as { anyOf?: TSchema[] }).anyOf;
  const object = variants?.find((v) => v.type === "object");
  if (object) return leaves(object, path);
  return [path];
}

function column(path: string[]): Column<Row> {
  const name = path.join("_");
  if (name === "transformations") return [name, ({ observation }) => joinTransformations(observation.transformations)];
  if (name === "warnings") return [name, ({ observation, warnings }) => rowWarnings(observation.warnings, warnings)];
  return [name, ({ observation }) => {
    const value = at(observation, path);
    return Array.isArray(value) ? value.join(" ") : (value as Cell);
  }];
}

export const MODELED_COLUMNS: readonly Column<Row>[] = [
  ...leaves(GridObservation).map(column),
  ["answer_warnings", ({ warnings, index }) => onFirstRow(index, warnings)],
];

type ModeledBody = { observations: readonly Obs[]; warnings: readonly string[]; query: { latitude: number; longitude: number } };

export const MODELED_TABLE: CsvTable<ModeledBody> = {
  render: (body) => toCsv(MODELED_COLUMNS, body.observations.map((observation, index) => ({ observation, warnings: body.warnings, index }))),
  fileName: (body) => `loam-soil-modeled_${body.query.latitude}_${body.query.longitude}.csv`,
};
