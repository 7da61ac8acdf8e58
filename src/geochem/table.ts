/**
 * The geochemistry answers as tables (see src/tables/flatten.ts): GET /v1/geochem/sites as one row per site
 * (with the flat result of the element asked for), GET /v1/geochem/sites/{site_id} as one row per element
 * observation with the site on every row. Provenance as columns, warnings last. The columns are derived
 * from the models (src/tables/derive.ts); what a table leaves out is declared with why.
 */
import { GeochemObservation } from "../domain/sample-site";
import { GeochemSiteCollection, GeochemSiteFeature, GeochemSiteResponse } from "./model";
import type { CsvTable } from "../http/response";
import { toCsv, type Column } from "../tables/csv";
import { CACHE_OMITTED, CACHE_WHY, deriveColumns, ENVELOPE_OMITTED, pointFeaturePart, type TableSpec } from "../tables/derive";
import { joinTransformations, onFirstRow, rowWarnings } from "../tables/flatten";

/** `retrievedAt`: when Loam's source read the sites (docs/decisions.md#retrieved-at), not the cache's storage time. */
type SiteRow = { feature: GeochemSiteFeature; answer: GeochemSiteCollection; index: number; retrievedAt: string };

export const GEOCHEM_SITE_SPEC: TableSpec<SiteRow> = {
  parts: [
    {
      ...pointFeaturePart<SiteRow>(GeochemSiteFeature, "site_id", { omit: { "properties.representative_of_bbox": "always false: the JSON says why" } }),
      // The element is `property_id`, as on every CSV (docs/decisions.md#csv-columns).
      rename: { "properties.property": "property_id" },
    },
    {
      model: GeochemSiteCollection,
      at: "",
      of: (row) => row.answer,
      prefix: { cache: "" },
      rename: { "cache.stored_at": "retrieved_at", warnings: "answer_warnings" },
      cells: {
        "cache.stored_at": ({ retrievedAt }) => retrievedAt,
        // The list's warnings speak of the list, not of a site: once (docs/decisions.md#csv-warning-codes).
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
  // Today's order (docs/api.md): the site's point after its ids.
  order: [
    "site_id", "lab_id", "state", "latitude", "longitude", "collection_date", "land_cover_primary", "land_cover_secondary",
    "depth_top_cm", "depth_bottom_cm", "distance_km", "property_id", "value", "reported_value", "value_qualifier", "result_status", "reporting_limit", "unit",
    "provider", "truncated", "retrieved_at", "answer_warnings",
  ],
};

export const GEOCHEM_SITE_COLUMNS: readonly Column<SiteRow>[] = deriveColumns(GEOCHEM_SITE_SPEC);

export function geochemSiteCollectionCsv(answer: GeochemSiteCollection, retrievedAt: string = answer.cache.stored_at): string {
  return toCsv(GEOCHEM_SITE_COLUMNS, answer.features.map((feature, index) => ({ feature, answer, index, retrievedAt })));
}

type ObservationRow = { observation: GeochemObservation; answer: GeochemSiteResponse; index: number };

export const GEOCHEM_OBSERVATION_SPEC: TableSpec<ObservationRow> = {
  parts: [
    {
      model: GeochemSiteResponse,
      at: "",
      of: (row) => row.answer,
      prefix: { site: "", source: "" },
      rename: { warnings: "answer_warnings" },
      // The answer's warnings once, on the first row (docs/decisions.md#csv-warning-codes).
      cells: { warnings: ({ answer, index }) => onFirstRow(index, answer.warnings) },
      omit: {
        ...ENVELOPE_OMITTED,
        data_kind: "always observed; each observation's data_kind is the column",
        query: "what was asked: the request says it",
        "site.context": "always sample",
        "site.land_cover_primary": "a fact of the site: in the site list's table and the JSON",
        "site.land_cover_secondary": "a fact of the site: in the site list's table and the JSON",
        observations: "the rows",
        "source.provider": "the answer's provider is the column",
        "source.organization": "named by the citation",
        "source.source_url": "the same file for every site: in the JSON",
        "source.retrieved_at": "each observation's retrieved_at is the column",
        cache: CACHE_WHY,
      },
    },
    {
      model: GeochemObservation,
      at: "observations[]",
      of: (row) => row.observation,
      prefix: { source: "" },
      rename: { "source.column": "original_column" },
      cells: {
        transformations: ({ observation: o }) => joinTransformations(o.transformations),
        // A row's own warnings as codes, the answer's once (docs/decisions.md#csv-warning-codes).
        warnings: ({ observation: o, answer }) => rowWarnings(o.warnings, answer.warnings),
      },
      omit: {
        "source.provider": "the answer's provider is the column",
        "source.citation": "the answer's citation is the column (one file)",
      },
    },
  ],
  // Today's order (docs/api.md): the site first, the observation, then the provenance and warnings.
  order: [
    "site_id", "lab_id", "state", "latitude", "longitude", "collection_date", "depth_top_cm", "depth_bottom_cm",
    "property_id", "property_name", "value", "reported_value", "value_qualifier", "reporting_limit", "unit", "data_kind", "measurement_method",
    "original_column", "original_value", "original_unit", "transformations", "provider", "citation", "retrieved_at", "warnings", "answer_warnings",
  ],
};

export const GEOCHEM_OBSERVATION_COLUMNS: readonly Column<ObservationRow>[] = deriveColumns(GEOCHEM_OBSERVATION_SPEC);

export function geochemSiteCsv(answer: GeochemSiteResponse): string {
  return toCsv(GEOCHEM_OBSERVATION_COLUMNS, answer.observations.map((observation, index) => ({ observation, answer, index })));
}

/** GET /v1/geochem/sites: one row per site, named by the box or the point. */
export const GEOCHEM_SITE_COLLECTION_TABLE: CsvTable<GeochemSiteCollection> = {
  render: (body) => geochemSiteCollectionCsv(body),
  fileName: (body) => `loam-geochem-sites_${(body.query.bbox ?? body.query.near ?? []).join("_")}.csv`,
};

/** The site table with `retrieved_at` as the route states it: when its source read the sites (docs/decisions.md#retrieved-at). */
export function geochemSiteCollectionTable(retrievedAtOf: (body: GeochemSiteCollection) => string): CsvTable<GeochemSiteCollection> {
  return { ...GEOCHEM_SITE_COLLECTION_TABLE, render: (body) => geochemSiteCollectionCsv(body, retrievedAtOf(body)) };
}

/** GET /v1/geochem/sites/{site_id}: one row per element observation, named by the site. */
export const GEOCHEM_SITE_TABLE: CsvTable<GeochemSiteResponse> = {
  render: geochemSiteCsv,
  fileName: (body) => `loam-geochem-site_${body.site.site_id}.csv`,
};
