/**
 * The station answers as tables (docs/architecture.md#tables): GET /v1/stations as one row per station,
 * GET /v1/stations/{station_triplet}/series as one row per time. The columns are derived from the models
 * (src/tables/derive.ts): the value columns are the models' own members, in the models' order; the
 * answer's provenance follows as columns, warnings last; what a table leaves out is declared with why.
 */
import { Type } from "@sinclair/typebox";
import type { CsvTable } from "../../http/response";
import { toCsv, type Column } from "../../tables/csv";
import { CACHE_OMITTED, CACHE_WHY, deriveColumns, ENVELOPE_OMITTED, pointFeaturePart, itemsOf, type TableSpec } from "../../tables/derive";
import { joinTransformations, joinWarnings, onFirstRow } from "../../tables/flatten";
import { StationCollection, StationDailyValue, StationFeature, StationFeatureProperties, StationHourlyValue, StationSeriesResponse } from "./model";

/** `retrievedAt`: when Loam's source read the stations (docs/decisions.md#retrieved-at), not the cache's storage time. */
type StationRow = { feature: StationFeature; answer: StationCollection; index: number; retrievedAt: string };

/** A station's list members (series_offline) as one cell, items separated by "; ". */
const listed = (value: readonly unknown[]) => itemsOf(value).join("; ");

export const STATION_SPEC: TableSpec<StationRow> = {
  parts: [
    pointFeaturePart(StationFeature, "station_triplet", { latitudeFirst: true, arrays: listed }),
    {
      model: StationCollection,
      at: "",
      of: (row) => row.answer,
      prefix: { cache: "" },
      rename: { "cache.stored_at": "retrieved_at", warnings: "answer_warnings" },
      cells: {
        "cache.stored_at": ({ retrievedAt }) => retrievedAt,
        // The list's warnings speak of the list, not of a station: once (docs/decisions.md#csv-warning-codes).
        warnings: ({ answer, index }) => onFirstRow(index, answer.warnings),
      },
      omit: {
        type: "always FeatureCollection",
        query: "what was asked: the request says it",
        next: "a CSV holds every page (docs/decisions.md#csv-whole)",
        features: "the rows",
        ...CACHE_OMITTED,
      },
    },
  ],
  // Every member of the feature's properties first, as the model lists them, then the point, then the list's members in today's order (docs/api.md).
  order: [...Object.keys(StationFeatureProperties.properties), "latitude", "longitude", "provider", "truncated", "retrieved_at", "answer_warnings"],
};

const STATION_COLUMNS: readonly Column<StationRow>[] = deriveColumns(STATION_SPEC);

/** GET /v1/stations, with `retrieved_at` as the route states it: when its source read the stations (docs/decisions.md#retrieved-at). */
export function stationCollectionTable(retrievedAtOf: (body: StationCollection) => string): CsvTable<StationCollection> {
  return {
    render: (body) => toCsv(STATION_COLUMNS, body.features.map((feature, index) => ({ feature, answer: body, index, retrievedAt: retrievedAtOf(body) }))),
    fileName: (body) => `loam-stations_${(body.query.bbox ?? body.query.near ?? []).join("_")}.csv`,
  };
}

/**
 * The answer's own cells: made once per rendering, not once per time (8,760 rows a year). The clock,
 * instrument, transformations, citations and warnings speak of the whole series (every time carries its own offset):
 * on the first row only (docs/decisions.md#csv-warning-codes), so a year of hourly values is not the same
 * kilobyte 8,760 times, and the CSV stays within twice its JSON (test/tables/csv-convention.test.ts).
 */
interface Common {
  clock: string;
  transformations: string;
  citations: string;
  warnings: string;
}
type ValueRow = { value: Record<string, unknown>; answer: StationSeriesResponse; common: Common; first: boolean };

/** The members of both value models, hourly's first, each once: a row is an hourly or a daily value. */
const StationValue = Type.Object({ ...StationHourlyValue.properties, ...StationDailyValue.properties });

export const STATION_SERIES_SPEC: TableSpec<ValueRow> = {
  parts: [
    {
      model: StationSeriesResponse,
      at: "",
      of: (row) => row.answer,
      prefix: { query: "", source: "" },
      rename: { "clock.name": "clock", "sensor.instrument": "instrument", warnings: "answer_warnings" },
      cells: {
        "clock.name": ({ common, first }) => (first ? common.clock : null),
        // The sensor's instrument is the series', as the clock is: once.
        "sensor.instrument": ({ answer, first }) => (first ? answer.sensor?.instrument : null),
        transformations: ({ common, first }) => (first ? common.transformations : null),
        "source.citations": ({ common, first }) => (first ? common.citations : null),
        warnings: ({ common, first }) => (first ? common.warnings : null),
      },
      omit: {
        ...ENVELOPE_OMITTED,
        provider: "the same as source.provider, which is the column",
        data_kind: "observed, or derived for daily means: the transformations column names the daily mean",
        native_interval: "the provider's reporting interval: in the JSON (the transformations column names a derivation)",
        ...Object.fromEntries(
          ["element", "source_element", "depth_cm", "ordinal", "unit", "source_unit", "start", "end"].map((m) => [`sensor.${m}`, "the sensor's record: in the JSON and GET /v1/stations/{station_triplet}; its instrument is the column"]),
        ),
        "query.interval": "the answer's interval is the column",
        "query.start": "the rows' times say the range",
        "query.end": "the rows' times say the range",
        station: "named by station_triplet; the rest is GET /v1/stations/{station_triplet}",
        "clock.utc_offset_hours": "in each time's offset",
        unit: "each value's unit is the column",
        flag_fields: "what the flags' positions are: in the JSON",
        values: "the rows",
        "source.organization": "named by the citations",
        "source.source_url": "the same for every row: in the JSON",
        cache: CACHE_WHY,
      },
    },
    {
      model: StationValue,
      at: "values[]",
      of: (row) => row.value,
      arrays: listed,
      cells: { flags: ({ value }) => (Array.isArray(value.flags) ? (value.flags as string[]).join(" ") : null) },
    },
  ],
  // Today's order (docs/api.md): what the series is, each value's members, then the provenance and warnings.
  order: ["station_triplet", "element", "depth_cm", "sensor", "interval", ...Object.keys(StationValue.properties), "instrument", "clock", "transformations", "provider", "citations", "retrieved_at", "answer_warnings"],
};

const SERIES_COLUMNS: readonly Column<ValueRow>[] = deriveColumns(STATION_SERIES_SPEC);

export const SERIES_TABLE: CsvTable<StationSeriesResponse> = {
  render: (body) => {
    const common = { clock: body.clock.name, transformations: joinTransformations(body.transformations), citations: body.source.citations.join(" | "), warnings: joinWarnings([], body.warnings) };
    return toCsv(SERIES_COLUMNS, (body.values as Record<string, unknown>[]).map((value, index) => ({ value, answer: body, common, first: index === 0 })));
  },
  fileName: (body) => `loam-station-series_${body.query.station_triplet.replace(/:/g, "-")}_${body.query.element}_${body.query.depth_cm}cm_${body.interval}.csv`,
};
