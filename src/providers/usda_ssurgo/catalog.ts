/** SSURGO's catalog record (GET /v1/providers) and the provenance every SSURGO observation carries. */
import type { ProviderRecord } from "../../catalog/model";
import type { MappedScope } from "../../domain/coverage";
import { SDA_LIMITS, USDA_NRCS_LICENSE } from "../usda";
import { SSURGO_PROPERTIES } from "./columns";

export const SSURGO_ID = "usda_ssurgo";
export const SSURGO_ORGANIZATION = "USDA Natural Resources Conservation Service (NRCS), National Cooperative Soil Survey";
export const SSURGO_SOURCE_URL = "https://sdmdataaccess.nrcs.usda.gov/";
export const SSURGO_LICENSE = {
  name: "Public domain (US Government work, USDA-NRCS); acknowledge: Soil Survey Staff, Natural Resources Conservation Service, United States Department of Agriculture. Soil Survey Geographic (SSURGO) Database.",
  url: "https://www.nrcs.usda.gov/resources/data-and-reports/soil-survey-geographic-database-ssurgo",
};
/** The name generic served text calls SSURGO by (docs/decisions.md#provider-words). */
export const SSURGO_SHORT_NAME = "SSURGO";

/**
 * Where SSURGO maps: the United States, its territories, and the Pacific freely associated states whose
 * surveys NRCS publishes (MH936 is in the Marshall Islands), as ISO 3166-1 numeric codes.
 */
export const SSURGO_SCOPE: MappedScope = {
  countries: ["840", "630", "850", "316", "016", "580", "581", "583", "584", "585"],
  sentence: "SSURGO covers the United States and territories only",
};

/** The citation of SSURGO's polygons in an area report. */
export const SSURGO_AREA_CITATION = `Soil Survey Staff, Natural Resources Conservation Service, United States Department of Agriculture. Soil Survey Geographic (SSURGO) Database. ${SSURGO_SOURCE_URL}`;

export const SSURGO_SPATIAL_RESOLUTION =
  "Soil survey map-unit polygons, typically compiled at 1:12,000 to 1:24,000 (minimum delineations of roughly 0.4 to 2 ha); values belong to the map unit's components, not to the point.";

export const SSURGO_RECORD: ProviderRecord = {
  id: SSURGO_ID,
  name: "SSURGO: Soil Survey Geographic Database",
  organization: SSURGO_ORGANIZATION,
  coverage:
    "United States and its territories (including Puerto Rico, the US Virgin Islands and Pacific Island areas) " +
    "wherever a detailed soil survey is complete: survey-area (county-scale) mapping at 1:12,000 to 1:63,360. " +
    "Some areas (parts of federal and tribal lands, remote areas) have no completed survey. In offline snapshot " +
    "mode only the survey areas of the snapshot are served; responses name that coverage in their warnings.",
  data_kind: "mapped_survey",
  status: "experimental",
  access_method:
    "USDA Soil Data Access (SDA) REST: T-SQL over HTTPS POST, JSON+COLUMNNAME+METADATA (map unit polygon at the " +
    "point, joined to its components and horizons), or an offline snapshot built from Web Soil Survey SSURGO " +
    "exports (LOAM_UPSTREAM=snapshot).",
  documentation_url: "https://www.nrcs.usda.gov/resources/data-and-reports/soil-survey-geographic-database-ssurgo",
  source_url: SSURGO_SOURCE_URL,
  license: USDA_NRCS_LICENSE,
  authentication: "none: public service, no key (Soil Data Access is an open HTTPS endpoint; snapshot mode reads a local file).",
  operational: true,
  supported_properties: SSURGO_PROPERTIES.map((p) => p.property),
  limitations: [
    "supported_properties are the horizon values the point query observes. Map-unit summaries (GET /v1/soil/summary, GET /v1/soil/mapunits/{map_unit_key}) also give slope, available_water_storage and the classes drainage_class, hydrologic_group, taxonomic_class and texture_class.",
    "Mapped values are the representative values (_r; _l and _h are the typical low and high) of the components and horizons of the map unit that contains the point, not measurements at the point. A map unit holds several components and undelineated inclusions; the soil at the point may be any of them.",
    "Point queries exclude STATSGO2 (the generalized 1:250,000 dataset, areasymbol 'US'): where no SSURGO survey is complete the answer is empty, not a coarser STATSGO2 value.",
    "Survey vintages differ between survey areas: each area has its own version date (sacatalog.saverest, given in the citation), areas were mapped in different decades, and adjacent areas may not join exactly at their boundaries.",
    "organic_carbon is derived (om_r / 1.724), not reported by SSURGO; total nitrogen is not part of SSURGO.",
    "USDA states that these data and their interpretations are intended for planning purposes only; map-unit delineations are not precise enough for site-specific decisions without an on-site investigation.",
    ...SDA_LIMITS,
  ],
};
