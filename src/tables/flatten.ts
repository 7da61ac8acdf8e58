/**
 * The JSON answers as tables, one row per thing a user counts: an observation of the point query,
 * a pedon of the collection, a lab observation of a pedon. Every column a row needs to stand alone
 * in a spreadsheet is on it (provenance, censoring, depth). The tables stay tidy and small
 * (docs/decisions.md#csv-warning-codes): `warnings` holds the row's own warnings as short stable codes,
 * and the answer's warnings (and, for a pedon, its citation) appear once, on the first row. Pure
 * functions over the bodies the JSON routes send; nothing here knows HTTP.
 */
import type { Static } from "@sinclair/typebox";
import { SoilObservation, type Observation as AnyObservation } from "../domain/observation";
import { LabLayer, LabObservation, PedonFeature, PedonLocation } from "../domain/lab";
import type { Transformation } from "../catalog/model";
import { toCsv, type Column } from "./csv";
import { CACHE_WHY, deriveColumns, ENVELOPE_OMITTED, pointFeaturePart, type TableSpec } from "./derive";
import { warningCode } from "./warning-codes";

export const WARNING_SEPARATOR = " | ";

// The bodies as far as their tables read them (typed from the domain's shapes, so this room depends
// on no feature): the point query's, the pedon collection's and the pedon detail's.
type Observation = Static<typeof AnyObservation>;

type Feature = Static<typeof PedonFeature>;
export type LocationBody = { observations: readonly Observation[]; warnings: readonly string[] };
export type PedonCollectionBody = { features: readonly Feature[]; provider: string; truncated: boolean; cache: { stored_at: string }; warnings: readonly string[] };
export type PedonBody = {
  pedon_key: string;
  provider: string;
  location: { latitude: number | null; longitude: number | null };
  retrieved_at: string;
  citation: string;
  source_url: string;
  layers: readonly Static<typeof LabLayer>[];
  warnings: readonly string[];
};

/** "operation: formula (from -> to)", joined: enough to redo the conversion by hand. */
export function joinTransformations(transformations: readonly Pick<Static<typeof Transformation>, "operation" | "formula" | "from_unit" | "to_unit">[]): string {
  return transformations.map((t) => `${t.operation}: ${t.formula} (${t.from_unit} -> ${t.to_unit})`).join(WARNING_SEPARATOR);
}

/** The row's own warnings, then the answer's, each once. */
export function joinWarnings(own: readonly string[], answer: readonly string[]): string {
  return [...new Set([...own, ...answer])].join(WARNING_SEPARATOR);
}

/** A row's own warnings without the ones the whole answer states (those appear once, as answer_warnings). */
export function ownWarnings(own: readonly string[], answer: readonly string[]): string[] {
  const shared = new Set(answer);
  return own.filter((w) => !shared.has(w));
}

/** A row's own warnings (not the answer's) as short codes, each once (docs/decisions.md#csv-warning-codes). */
export function rowWarnings(own: readonly string[], answer: readonly string[]): string {
  return [...new Set(ownWarnings(own, answer).map(warningCode))].join(WARNING_SEPARATOR);
}

/** The answer's warnings, on the first row only. */
export const onFirstRow = (index: number, answerWarnings: readonly string[]): string => (index === 0 ? answerWarnings.join(WARNING_SEPARATOR) : "");

// ---- GET /v1/soil/location: one row per observation ------------------------------------------

type Location = LocationBody;
type Collection = PedonCollectionBody;
type Pedon = PedonBody;

type LocationRow = { observation: Observation; answer: Location; index: number };

/** Today's header order (docs/api.md; the R and Python examples read it): the point and its map unit before the provenance. */
const LOCATION_ORDER = [
  "property_id", "property_name", "value", "unit", "depth_top_cm", "depth_bottom_cm", "data_kind", "measurement_method",
  "latitude", "longitude",
  "area_symbol", "map_unit_key", "map_unit_symbol", "map_unit_name", "component_key", "component_name", "component_percent", "horizon_key", "horizon_name",
  "provider", "organization", "record_id", "retrieved_at", "original_property_name", "original_value", "original_unit",
  "original_depth_top_cm", "original_depth_bottom_cm", "original_measurement_method", "citation", "source_url",
  "uncertainty_lower", "uncertainty_upper", "uncertainty_method", "license_name", "license_url", "transformations", "warnings", "answer_warnings",
];

/** A mapped-survey observation's members (SoilObservation), its provenance, point and survey context by their own names. */
export const LOCATION_SPEC: TableSpec<LocationRow> = {
  parts: [
    {
      model: SoilObservation,
      at: "observations[]",
      of: (row) => row.observation,
      prefix: { source: "", location: "", survey_context: "" },
      cells: {
        transformations: ({ observation: o }) => joinTransformations(o.transformations),
        warnings: ({ observation: o, answer }) => rowWarnings(o.warnings, answer.warnings),
      },
      omit: {
        "source.spatial_resolution": "the survey's mapping scale, one sentence the same on every row: in the JSON, not repeated down the table",
        "location.horizontal_accuracy_m": "always null for the point asked about (no accuracy is recorded): in the JSON only",
      },
    },
  ],
  extra: [["answer_warnings", ({ answer, index }) => onFirstRow(index, answer.warnings), "the answer's warnings, once, on the first row (docs/decisions.md#csv-warning-codes)", "warnings"]],
  // LocationResponse (src/location/model.ts) beyond its observations.
  bodyOmit: {
    ...ENVELOPE_OMITTED,
    query: "what was asked: the request says it",
    data_kind: "each observation's data_kind is the column",
    map_units: "each observation's survey_context names its map unit",
    cache: CACHE_WHY,
  },
  order: LOCATION_ORDER,
};

export const LOCATION_COLUMNS: readonly Column<LocationRow>[] = deriveColumns(LOCATION_SPEC);

export function locationRows(answer: Location): LocationRow[] {
  return answer.observations.map((observation, index) => ({ observation, answer, index }));
}

export function locationCsv(answer: Location): string {
  return toCsv(LOCATION_COLUMNS, locationRows(answer));
}

// ---- GET /v1/pedons: one row per feature ------------------------------------------------------

/** `retrievedAt`: when Loam's source read the list (docs/decisions.md#retrieved-at), not when it was asked. */
type FeatureRow = { feature: Feature; answer: Collection; retrievedAt: string; index: number };

/** A pedon feature's members (PedonFeature): its properties by their own names, its point as longitude and latitude. */
export const PEDON_FEATURE_SPEC: TableSpec<FeatureRow> = {
  parts: [
    pointFeaturePart(PedonFeature, "pedon_key", { omit: { "properties.series": "a link to another route (GET /v1/series/{name}): in the JSON" } }),
  ],
  // The list's own members (PedonCollection, src/pedons/model.ts: a feature's model, which this room does not import).
  extra: [
    ["provider", ({ answer }) => answer.provider, "the list's provider, on every row", "provider"],
    ["truncated", ({ answer }) => answer.truncated, "a column, not only a warning: a script filtering rows must still see that the list is cut short", "truncated"],
    ["retrieved_at", ({ retrievedAt }) => retrievedAt, "when the source read the list (docs/decisions.md#retrieved-at), not the cache's storage time"],
    ["answer_warnings", ({ answer, index }) => onFirstRow(index, answer.warnings), "the list's warnings speak of the list, not of a pedon: once (docs/decisions.md#csv-warning-codes)", "warnings"],
  ],
  bodyOmit: { type: "always FeatureCollection", query: "what was asked: the request says it", cache: CACHE_WHY },
  // Today's order (docs/api.md): the point after the pedon's names, before representative_of_bbox.
  order: ["pedon_key", "pedlabsampnum", "upedonid", "name", "site_observation_date", "layer_count", "longitude", "latitude", "representative_of_bbox"],
};

export const PEDON_FEATURE_COLUMNS: readonly Column<FeatureRow>[] = deriveColumns(PEDON_FEATURE_SPEC);

export function pedonFeatureRows(answer: Collection, retrievedAt: string = answer.cache.stored_at): FeatureRow[] {
  return answer.features.map((feature, index) => ({ feature, answer, retrievedAt, index }));
}

/** `retrievedAt` from the source (the snapshot build) where the cache's storage time is only when Loam was asked. */
export function pedonCollectionCsv(answer: Collection, retrievedAt?: string): string {
  return toCsv(PEDON_FEATURE_COLUMNS, pedonFeatureRows(answer, retrievedAt));
}

// ---- GET /v1/pedons/{pedon_key}: one row per lab observation ------------------------------------

type LabRow = { observation: Static<typeof LabObservation>; layer: Static<typeof LabLayer>; answer: Pedon; index: number };

/** A pedon's point (PedonLocation), each layer (LabLayer) and each of its observations (LabObservation). */
export const LAB_OBSERVATION_SPEC: TableSpec<LabRow> = {
  parts: [
    {
      model: PedonLocation,
      at: "location",
      of: (row) => row.answer.location,
      omit: { horizontal_accuracy_m: "unknown for lab pedons: always null (in the JSON)" },
    },
    {
      model: LabLayer,
      at: "layers[]",
      of: (row) => row.layer,
      // layer_type: horizon, layer, reporting layer or empty: the answer's overlap warning tells users to filter on it.
      omit: { observations: "the rows" },
    },
    {
      model: LabObservation,
      at: "layers[].observations[]",
      of: (row) => row.observation,
      // Censoring: value is empty for "<0.05" or "ND"; reported_value, value_qualifier and reporting_limit say what was reported and why.
      cells: {
        transformations: ({ observation: o }) => joinTransformations(o.transformations),
        warnings: ({ observation: o, answer }) => rowWarnings(o.warnings, answer.warnings),
      },
    },
  ],
  // The answer's own members (PedonDetail, src/pedons/model.ts: a feature's model, which this room does not import).
  extra: [
    ["pedon_key", ({ answer }) => answer.pedon_key, "the pedon, on every row: a row stands alone", "pedon_key"],
    ["provider", ({ answer }) => answer.provider, "the answer's provider, on every row", "provider"],
    ["retrieved_at", ({ answer }) => answer.retrieved_at, "when the answer was read, on every row", "retrieved_at"],
    ["citation", ({ answer, index }) => (index === 0 ? answer.citation : ""), "one pedon, one citation: stated once, on the first row (docs/decisions.md#csv-warning-codes)", "citation"],
    ["source_url", ({ answer }) => answer.source_url, "where the pedon was read, on every row", "source_url"],
    ["answer_warnings", ({ answer, index }) => onFirstRow(index, answer.warnings), "the answer's warnings, once, on the first row (docs/decisions.md#csv-warning-codes)", "warnings"],
  ],
  bodyOmit: {
    ...ENVELOPE_OMITTED,
    data_kind: "each observation's data_kind is the column",
    name: "a fact of the pedon: in the pedon list's table and the JSON",
    series: "a link to another route (GET /v1/series/{name}): in the JSON",
    query: "what was asked: the request says it",
    cache: CACHE_WHY,
  },
  // Today's order (docs/api.md): the pedon and layer first, the observation, then the provenance and warnings.
  order: [
    "pedon_key", "latitude", "longitude", "layer_key", "lab_sample_key", "horizon_designation", "layer_type", "depth_top_cm", "depth_bottom_cm",
    "property_id", "property_name", "value", "unit", "reported_value", "value_qualifier", "reporting_limit", "data_kind",
    "original_column", "method_code", "measurement_method", "provider", "retrieved_at", "citation", "source_url",
    "transformations", "warnings", "answer_warnings",
  ],
};

export const LAB_OBSERVATION_COLUMNS: readonly Column<LabRow>[] = deriveColumns(LAB_OBSERVATION_SPEC);

export function labObservationRows(answer: Pedon): LabRow[] {
  let index = 0;
  return answer.layers.flatMap((layer) => layer.observations.map((observation) => ({ observation, layer, answer, index: index++ })));
}

export function pedonCsv(answer: Pedon): string {
  return toCsv(LAB_OBSERVATION_COLUMNS, labObservationRows(answer));
}
