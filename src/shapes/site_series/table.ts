/**
 * The station answers as tables (docs/architecture.md#tables): GET /v1/stations as one row per station,
 * GET /v1/stations/{station_triplet}/series as one row per time. The value columns are the models' own
 * members, in the models' order; the answer's provenance follows as columns, warnings last.
 */
import type { CsvTable } from "../../http/response";
import { toCsv, type Cell, type Column } from "../../tables/csv";
import { joinTransformations, joinWarnings } from "../../tables/flatten";
import { StationDailyValue, StationHourlyValue, StationFeatureProperties, type StationSeriesResponse, type StationCollection, type StationFeature } from "./model";

type StationRow = { feature: StationFeature; answer: StationCollection };

const cell = (value: unknown): Cell => (Array.isArray(value) ? value.map((v) => (typeof v === "object" ? JSON.stringify(v) : String(v))).join("; ") : (value as Cell));

/** Every member of the feature's properties, as the model lists them. */
const STATION_COLUMNS: readonly Column<StationRow>[] = [
  ...Object.keys(StationFeatureProperties.properties).map((name): Column<StationRow> => [name, ({ feature }) => cell((feature.properties as Record<string, unknown>)[name])]),
  ["latitude", ({ feature }) => feature.geometry.coordinates[1]],
  ["longitude", ({ feature }) => feature.geometry.coordinates[0]],
  ["provider", ({ answer }) => answer.provider],
  ["truncated", ({ answer }) => answer.truncated],
  ["stored_at", ({ answer }) => answer.cache.stored_at],
  ["warnings", ({ answer }) => joinWarnings([], answer.warnings)],
];

export const STATION_COLLECTION_TABLE: CsvTable<StationCollection> = {
  render: (body) => toCsv(STATION_COLUMNS, body.features.map((feature) => ({ feature, answer: body }))),
  fileName: (body) => `loam-stations_${(body.query.bbox ?? body.query.near ?? []).join("_")}.csv`,
};

/** The answer's own cells, the same on every row: made once per rendering, not once per time (8,760 rows a year). */
interface Common {
  clock: string;
  transformations: string;
  citations: string;
  warnings: string;
}
type ValueRow = { value: Record<string, unknown>; answer: StationSeriesResponse; common: Common };

/** The members of both value models, hourly's first, each once. */
const VALUE_NAMES = [...new Set([...Object.keys(StationHourlyValue.properties), ...Object.keys(StationDailyValue.properties)])];

const SERIES_COLUMNS: readonly Column<ValueRow>[] = [
  ["station_triplet", ({ answer }) => answer.query.station_triplet],
  ["element", ({ answer }) => answer.query.element],
  ["depth_cm", ({ answer }) => answer.query.depth_cm],
  ["sensor", ({ answer }) => answer.query.sensor],
  ["interval", ({ answer }) => answer.interval],
  ...VALUE_NAMES.map((name): Column<ValueRow> => [name, ({ value }) => (name === "flags" && Array.isArray(value[name]) ? (value[name] as string[]).join(" ") : cell(value[name]))]),
  ["clock", ({ common }) => common.clock],
  ["transformations", ({ common }) => common.transformations],
  ["provider", ({ answer }) => answer.provider],
  ["citations", ({ common }) => common.citations],
  ["retrieved_at", ({ answer }) => answer.source.retrieved_at],
  ["warnings", ({ common }) => common.warnings],
];

export const SERIES_TABLE: CsvTable<StationSeriesResponse> = {
  render: (body) => {
    const common = { clock: body.clock.name, transformations: joinTransformations(body.transformations), citations: body.source.citations.join(" | "), warnings: joinWarnings([], body.warnings) };
    return toCsv(SERIES_COLUMNS, (body.values as Record<string, unknown>[]).map((value) => ({ value, answer: body, common })));
  },
  fileName: (body) => `loam-station-series_${body.query.station_triplet.replace(/:/g, "-")}_${body.query.element}_${body.query.depth_cm}cm_${body.interval}.csv`,
};
