/**
 * The geochemistry answers as tables (see ./flatten.ts): GET /v1/geochem/sites as one row per site (with
 * the flat result of the element asked for), GET /v1/geochem/sites/{site_id} as one row per element
 * observation with the site on every row. Provenance as columns, warnings last.
 */
import type { GeochemObservation } from "../domain/sample-site";
import type { GeochemSiteCollection, GeochemSiteFeature, GeochemSiteResponse } from "./model";
import type { CsvTable } from "../http/response";
import { toCsv, type Column } from "../tables/csv";
import { joinTransformations, onFirstRow, rowWarnings } from "../tables/flatten";

type SiteRow = { feature: GeochemSiteFeature; answer: GeochemSiteCollection; index: number };

export const GEOCHEM_SITE_COLUMNS: readonly Column<SiteRow>[] = [
  ["site_id", ({ feature: f }) => f.properties.site_id],
  ["lab_id", ({ feature: f }) => f.properties.lab_id],
  ["state", ({ feature: f }) => f.properties.state],
  ["latitude", ({ feature: f }) => f.geometry.coordinates[1]],
  ["longitude", ({ feature: f }) => f.geometry.coordinates[0]],
  ["collection_date", ({ feature: f }) => f.properties.collection_date],
  ["land_cover_primary", ({ feature: f }) => f.properties.land_cover_primary],
  ["land_cover_secondary", ({ feature: f }) => f.properties.land_cover_secondary],
  ["depth_top_cm", ({ feature: f }) => f.properties.depth.top_cm],
  ["depth_bottom_cm", ({ feature: f }) => f.properties.depth.bottom_cm],
  ["distance_km", ({ feature: f }) => f.properties.distance_km],
  ["property", ({ feature: f }) => f.properties.property],
  ["value", ({ feature: f }) => f.properties.value],
  ["reported_value", ({ feature: f }) => f.properties.reported_value],
  ["value_qualifier", ({ feature: f }) => f.properties.value_qualifier],
  ["reporting_limit", ({ feature: f }) => f.properties.reporting_limit],
  ["unit", ({ feature: f }) => f.properties.unit],
  ["provider", ({ answer }) => answer.provider],
  ["truncated", ({ answer }) => answer.truncated],
  ["stored_at", ({ answer }) => answer.cache.stored_at],
  // The list's warnings speak of the list, not of a site: once (docs/decisions.md#csv-warning-codes).
  ["warnings", ({ answer, index }) => onFirstRow(index, answer.warnings)],
];

export function geochemSiteCollectionCsv(answer: GeochemSiteCollection): string {
  return toCsv(GEOCHEM_SITE_COLUMNS, answer.features.map((feature, index) => ({ feature, answer, index })));
}

type ObservationRow = { observation: GeochemObservation; answer: GeochemSiteResponse; index: number };

export const GEOCHEM_OBSERVATION_COLUMNS: readonly Column<ObservationRow>[] = [
  ["site_id", ({ answer }) => answer.site.site_id],
  ["lab_id", ({ answer }) => answer.site.lab_id],
  ["state", ({ answer }) => answer.site.state],
  ["latitude", ({ answer }) => answer.site.latitude],
  ["longitude", ({ answer }) => answer.site.longitude],
  ["collection_date", ({ answer }) => answer.site.collection_date],
  ["depth_top_cm", ({ answer }) => answer.site.depth.top_cm],
  ["depth_bottom_cm", ({ answer }) => answer.site.depth.bottom_cm],
  ["property_id", ({ observation: o }) => o.property.id],
  ["property_name", ({ observation: o }) => o.property.name],
  ["value", ({ observation: o }) => o.value],
  ["reported_value", ({ observation: o }) => o.reported_value],
  ["value_qualifier", ({ observation: o }) => o.value_qualifier],
  ["reporting_limit", ({ observation: o }) => o.reporting_limit],
  ["unit", ({ observation: o }) => o.unit],
  ["data_kind", ({ observation: o }) => o.data_kind],
  ["measurement_method", ({ observation: o }) => o.measurement_method],
  ["original_column", ({ observation: o }) => o.source.column],
  ["original_value", ({ observation: o }) => o.source.original_value],
  ["original_unit", ({ observation: o }) => o.source.original_unit],
  ["transformations", ({ observation: o }) => joinTransformations(o.transformations)],
  ["provider", ({ answer }) => answer.provider],
  ["citation", ({ answer }) => answer.source.citation],
  ["retrieved_at", ({ observation: o }) => o.source.retrieved_at],
  // A row's own warnings as codes, the answer's once (docs/decisions.md#csv-warning-codes).
  ["warnings", ({ observation: o, answer }) => rowWarnings(o.warnings, answer.warnings)],
  ["answer_warnings", ({ answer, index }) => onFirstRow(index, answer.warnings)],
];

export function geochemSiteCsv(answer: GeochemSiteResponse): string {
  return toCsv(GEOCHEM_OBSERVATION_COLUMNS, answer.observations.map((observation, index) => ({ observation, answer, index })));
}

/** GET /v1/geochem/sites: one row per site, named by the box or the point. */
export const GEOCHEM_SITE_COLLECTION_TABLE: CsvTable<GeochemSiteCollection> = {
  render: geochemSiteCollectionCsv,
  fileName: (body) => `loam-geochem-sites_${(body.query.bbox ?? body.query.near ?? []).join("_")}.csv`,
};

/** GET /v1/geochem/sites/{site_id}: one row per element observation, named by the site. */
export const GEOCHEM_SITE_TABLE: CsvTable<GeochemSiteResponse> = {
  render: geochemSiteCsv,
  fileName: (body) => `loam-geochem-site_${body.site.site_id}.csv`,
};
