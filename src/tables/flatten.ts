/**
 * The JSON answers as tables, one row per thing a user counts: an observation of the point query,
 * a pedon of the collection, a lab observation of a pedon. Every column a row needs to stand alone
 * in a spreadsheet is on it (provenance, censoring, depth). The tables stay tidy and small
 * (docs/decisions.md#csv-warning-codes): `warnings` holds the row's own warnings as short stable codes,
 * and the answer's warnings (and, for a pedon, its citation) appear once, on the first row. Pure
 * functions over the bodies the JSON routes send; nothing here knows HTTP.
 */
import type { Static } from "@sinclair/typebox";
import type { Observation as AnyObservation } from "../domain/observation";
import type { LabLayer, LabObservation, PedonFeature } from "../domain/lab";
import type { Transformation } from "../catalog/model";
import { toCsv, type Column } from "./csv";
import { warningCode } from "./warning-codes";

export const WARNING_SEPARATOR = " | ";

// The bodies as far as their tables read them (typed from the domain's shapes, so this room depends
// on no feature): the point query's, the pedon collection's and the pedon detail's.
type Observation = Static<typeof AnyObservation>;

/** A mapped-survey observation's map unit, component and horizon; null columns for other contexts. */
const survey = (o: Observation) => ("survey_context" in o ? o.survey_context : null);
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

export const LOCATION_COLUMNS: readonly Column<LocationRow>[] = [
  ["property_id", ({ observation: o }) => o.property.id],
  ["property_name", ({ observation: o }) => o.property.name],
  ["value", ({ observation: o }) => o.value],
  ["unit", ({ observation: o }) => o.unit],
  ["depth_top_cm", ({ observation: o }) => o.depth.top_cm],
  ["depth_bottom_cm", ({ observation: o }) => o.depth.bottom_cm],
  ["data_kind", ({ observation: o }) => o.data_kind],
  ["measurement_method", ({ observation: o }) => o.measurement_method],
  ["latitude", ({ observation: o }) => o.location.latitude],
  ["longitude", ({ observation: o }) => o.location.longitude],
  ["area_symbol", ({ observation: o }) => survey(o)?.area_symbol ?? null],
  ["map_unit_key", ({ observation: o }) => survey(o)?.map_unit_key ?? null],
  ["map_unit_symbol", ({ observation: o }) => survey(o)?.map_unit_symbol ?? null],
  ["map_unit_name", ({ observation: o }) => survey(o)?.map_unit_name ?? null],
  ["component_key", ({ observation: o }) => survey(o)?.component_key ?? null],
  ["component_name", ({ observation: o }) => survey(o)?.component_name ?? null],
  ["component_percent", ({ observation: o }) => survey(o)?.component_percent ?? null],
  ["horizon_key", ({ observation: o }) => survey(o)?.horizon_key ?? null],
  ["horizon_name", ({ observation: o }) => survey(o)?.horizon_name ?? null],
  ["provider", ({ observation: o }) => o.source.provider],
  ["organization", ({ observation: o }) => o.source.organization],
  ["record_id", ({ observation: o }) => o.source.record_id],
  ["retrieved_at", ({ observation: o }) => o.source.retrieved_at],
  ["original_property_name", ({ observation: o }) => o.source.original_property_name],
  ["original_value", ({ observation: o }) => o.source.original_value],
  ["original_unit", ({ observation: o }) => o.source.original_unit],
  ["original_depth_top_cm", ({ observation: o }) => o.source.original_depth.top_cm],
  ["original_depth_bottom_cm", ({ observation: o }) => o.source.original_depth.bottom_cm],
  ["original_measurement_method", ({ observation: o }) => o.source.original_measurement_method],
  ["citation", ({ observation: o }) => o.source.citation],
  ["source_url", ({ observation: o }) => o.source.source_url],
  ["uncertainty_lower", ({ observation: o }) => o.uncertainty.lower],
  ["uncertainty_upper", ({ observation: o }) => o.uncertainty.upper],
  ["uncertainty_method", ({ observation: o }) => o.uncertainty.method],
  ["license_name", ({ observation: o }) => o.license.name],
  ["license_url", ({ observation: o }) => o.license.url],
  ["transformations", ({ observation: o }) => joinTransformations(o.transformations)],
  ["warnings", ({ observation: o, answer }) => rowWarnings(o.warnings, answer.warnings)],
  ["answer_warnings", ({ answer, index }) => onFirstRow(index, answer.warnings)],
];

export function locationRows(answer: Location): LocationRow[] {
  return answer.observations.map((observation, index) => ({ observation, answer, index }));
}

export function locationCsv(answer: Location): string {
  return toCsv(LOCATION_COLUMNS, locationRows(answer));
}

// ---- GET /v1/pedons: one row per feature ------------------------------------------------------

/** `retrievedAt`: when Loam's source read the list (docs/decisions.md#retrieved-at), not when it was asked. */
type FeatureRow = { feature: Feature; answer: Collection; retrievedAt: string; index: number };

export const PEDON_FEATURE_COLUMNS: readonly Column<FeatureRow>[] = [
  ["pedon_key", ({ feature: f }) => f.properties.pedon_key],
  ["pedlabsampnum", ({ feature: f }) => f.properties.pedlabsampnum],
  ["upedonid", ({ feature: f }) => f.properties.upedonid],
  ["name", ({ feature: f }) => f.properties.name],
  ["site_observation_date", ({ feature: f }) => f.properties.site_observation_date],
  ["layer_count", ({ feature: f }) => f.properties.layer_count],
  ["longitude", ({ feature: f }) => f.geometry.coordinates[0]],
  ["latitude", ({ feature: f }) => f.geometry.coordinates[1]],
  ["representative_of_bbox", ({ feature: f }) => f.properties.representative_of_bbox],
  ["provider", ({ answer }) => answer.provider],
  // A column, not only a warning: a script filtering rows must still see that the list is cut short.
  ["truncated", ({ answer }) => answer.truncated],
  ["retrieved_at", ({ retrievedAt }) => retrievedAt],
  // The list's warnings speak of the list, not of a pedon: once (docs/decisions.md#csv-warning-codes).
  ["warnings", ({ answer, index }) => onFirstRow(index, answer.warnings)],
];

export function pedonFeatureRows(answer: Collection, retrievedAt: string = answer.cache.stored_at): FeatureRow[] {
  return answer.features.map((feature, index) => ({ feature, answer, retrievedAt, index }));
}

/** `retrievedAt` from the source (the snapshot build) where the cache's storage time is only when Loam was asked. */
export function pedonCollectionCsv(answer: Collection, retrievedAt?: string): string {
  return toCsv(PEDON_FEATURE_COLUMNS, pedonFeatureRows(answer, retrievedAt));
}

// ---- GET /v1/pedons/{pedon_key}: one row per lab observation ------------------------------------

type LabRow = { observation: Static<typeof LabObservation>; layer: Static<typeof LabLayer>; answer: Pedon; index: number };

export const LAB_OBSERVATION_COLUMNS: readonly Column<LabRow>[] = [
  ["pedon_key", ({ answer }) => answer.pedon_key],
  ["latitude", ({ answer }) => answer.location.latitude],
  ["longitude", ({ answer }) => answer.location.longitude],
  ["layer_key", ({ layer }) => layer.layer_key],
  ["lab_sample_key", ({ layer }) => layer.lab_sample_key],
  ["horizon_designation", ({ layer }) => layer.horizon_designation],
  // horizon, layer, reporting layer or empty: the answer's overlap warning tells users to filter on it.
  ["layer_type", ({ layer }) => layer.layer_type],
  ["depth_top_cm", ({ layer }) => layer.depth.top_cm],
  ["depth_bottom_cm", ({ layer }) => layer.depth.bottom_cm],
  ["property_id", ({ observation: o }) => o.property.id],
  ["property_name", ({ observation: o }) => o.property.name],
  ["value", ({ observation: o }) => o.value],
  ["unit", ({ observation: o }) => o.unit],
  // Censoring: value is empty for "<0.05" or "ND"; these three say what was reported and why.
  ["reported_value", ({ observation: o }) => o.reported_value],
  ["value_qualifier", ({ observation: o }) => o.value_qualifier],
  ["reporting_limit", ({ observation: o }) => o.reporting_limit],
  ["data_kind", ({ observation: o }) => o.data_kind],
  ["original_column", ({ observation: o }) => o.original_column],
  ["method_code", ({ observation: o }) => o.method_code],
  ["measurement_method", ({ observation: o }) => o.measurement_method],
  ["provider", ({ answer }) => answer.provider],
  ["retrieved_at", ({ answer }) => answer.retrieved_at],
  // One pedon, one citation: stated once, on the first row (source_url stays on every row).
  ["citation", ({ answer, index }) => (index === 0 ? answer.citation : "")],
  ["source_url", ({ answer }) => answer.source_url],
  ["transformations", ({ observation: o }) => joinTransformations(o.transformations)],
  ["warnings", ({ observation: o, answer }) => rowWarnings(o.warnings, answer.warnings)],
  ["answer_warnings", ({ answer, index }) => onFirstRow(index, answer.warnings)],
];

export function labObservationRows(answer: Pedon): LabRow[] {
  let index = 0;
  return answer.layers.flatMap((layer) => layer.observations.map((observation) => ({ observation, layer, answer, index: index++ })));
}

export function pedonCsv(answer: Pedon): string {
  return toCsv(LAB_OBSERVATION_COLUMNS, labObservationRows(answer));
}
