/**
 * The catalog record of isric_soilgrids (GET /v1/providers), and the citation and licence every value
 * carries (docs/decisions.md#isric-soilgrids).
 */
import type { ProviderRecord } from "../../catalog/model";
import { SOILGRIDS_LAYERS } from "./layers";

export const SOILGRIDS_ID = "isric_soilgrids";
export const SOILGRIDS_ORGANIZATION = "ISRIC - World Soil Information";
export const SOILGRIDS_MODEL = "SoilGrids";
export const SOILGRIDS_RELEASE = "2.0";
export const SOILGRIDS_RESOLUTION_M = 250;
export const SOILGRIDS_CITATION =
  "Poggio, L., de Sousa, L.M., Batjes, N.H., Heuvelink, G.B.M., Kempen, B., Ribeiro, E., and Rossiter, D., 2021, " +
  "SoilGrids 2.0: producing soil information for the globe with quantified spatial uncertainty, SOIL 7, 217-240, " +
  "https://doi.org/10.5194/soil-7-217-2021";
export const SOILGRIDS_LICENSE = { name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" };
export const SOILGRIDS_DOCS = "https://www.isric.org/explore/soilgrids";
export const SOILGRIDS_FILES = "https://files.isric.org/soilgrids/latest/data/";
/**
 * When the offline clips were read from ISRIC: between 2022-03-31 and 2022-04-11, the day their bytes were
 * last written (datasets/soilgrids/README.md; the GeoTIFFs carry no date). Their retrieved_at, not the
 * snapshot build's (docs/decisions.md#retrieved-at).
 */
export const CLIPS_RETRIEVED_AT = "2022-04-11T00:00:00.000Z";
export const DEFAULT_SOILGRIDS_URL = "https://rest.isric.org/soilgrids/v2.0/properties/query";

export const SOILGRIDS_RECORD: ProviderRecord = {
  id: SOILGRIDS_ID,
  name: "SoilGrids 250 m (version 2.0)",
  organization: SOILGRIDS_ORGANIZATION,
  coverage:
    "Global land areas on a 250 m grid (Interrupted Goode Homolosine), six depth intervals (0-5, 5-15, 15-30, 30-60, " +
    "60-100 and 100-200 cm; organic carbon stock 0-30 cm). Offline: the GeoTIFF clips the snapshot was given (EPSG:4326), " +
    "named by what they cover.",
  data_kind: "modeled",
  status: "experimental",
  access_method:
    "GET /v1/soil/modeled (values at a point, JSON or CSV), GET /v1/providers/isric_soilgrids/raw/location and " +
    "GET /v1/soil/modeled/grid (a clip as a grid a map can draw). Live (LOAM_UPSTREAM=sda): the ISRIC SoilGrids REST " +
    "point query (SOILGRIDS_URL), one call per point and query, at most SOILGRIDS_REQUESTS_PER_MINUTE calls a minute " +
    "across every worker and instance, answers kept 30 days. Offline: the clips imported into the snapshot.",
  documentation_url: SOILGRIDS_DOCS,
  source_url: DEFAULT_SOILGRIDS_URL,
  license: `${SOILGRIDS_LICENSE.name} (${SOILGRIDS_LICENSE.url}). Cite: ${SOILGRIDS_CITATION}.`,
  authentication: "none: public API, no key; ISRIC asks for fair use (about 5 requests a minute).",
  operational: true,
  supported_properties: SOILGRIDS_LAYERS.map((layer) => layer.property),
  limitations: [
    "Values are machine-learning predictions (quantile random forests), not measurements; at 250 m they smooth local variation, and prediction intervals are wide where training profiles are sparse.",
    "A value describes a 250 m cell, not the queried point; the interval served (Q0.05 to Q0.95) is the model's own 90 % prediction interval.",
    "The training profiles were measured by many laboratories and methods, harmonized only approximately; values are not method-specific.",
    "Water, built-up land and areas outside the model's soil mask have no prediction (null): no observation, with a warning.",
    "The REST API is a beta service with a fair-use limit; over Loam's budget a request is a 503 upstream_budget_exhausted to retry after Retry-After.",
    "Offline the clips hold clay and silt means at 0-5 and 5-15 cm only, resampled by a third party's reprojection; elsewhere there is no offline value.",
  ],
};
