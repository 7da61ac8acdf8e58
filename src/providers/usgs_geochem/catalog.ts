/**
 * The catalog record of usgs_geochem (GET /v1/providers) and the citation its answers carry.
 */
import type { ProviderRecord } from "../../catalog/model";
import type { SettingDeclaration } from "../../config";
import { ELEMENT_PROPERTIES } from "./elements";

export const DS801_CITATION =
  "Smith, D.B., Cannon, W.F., Woodruff, L.G., Solano, Federico, Kilburn, J.E., and Fey, D.L., 2013, Geochemical and " +
  "mineralogical data for soils of the conterminous United States: U.S. Geological Survey Data Series 801, 19 p., " +
  "https://pubs.usgs.gov/ds/801/ (https://doi.org/10.3133/ds801). Appendix 2b, 0-5 cm samples (file Appendix_2b_Top5_18Sept2013.txt).";

/** The citation each observation carries (the answer's `source` carries the full one). */
export const DS801_SHORT_CITATION = "Smith and others (2013), USGS Data Series 801, Appendix 2b, https://doi.org/10.3133/ds801";

export const GEOCHEM_ORGANIZATION = "U.S. Geological Survey (USGS)";
export const DS801_URL = "https://pubs.usgs.gov/ds/801/";

/** USGS Data Series 801 Appendix 2b, the 0-5 cm geochemistry table (docs/decisions.md#geochem-live). */
export const DEFAULT_GEOCHEM_URL = "https://pubs.usgs.gov/ds/801/downloads/Appendix_2b_Top5_18Sept2013.txt";

/** GEOCHEM_URL, the variable usgs_geochem declares of itself (docs/architecture.md#providers). */
export const GEOCHEM_URL_SETTING = {
  name: "GEOCHEM_URL",
  kind: "url",
  default: DEFAULT_GEOCHEM_URL,
  help: "the geochemistry file (live mode)",
} as const satisfies SettingDeclaration;

export const GEOCHEM_CATALOG_RECORD: ProviderRecord = {
  id: "usgs_geochem",
  name: "Geochemical and Mineralogical Survey of Soils of the Conterminous United States (USGS Data Series 801)",
  organization: GEOCHEM_ORGANIZATION,
  coverage:
    "Conterminous United States: 4,857 sites at a density of about one site per 1,600 square kilometres, sampled " +
    "2007 to 2011 (6 sites in 2011). Loam serves the 0 to 5 cm samples (Appendix 2b): 44 elements per site; 16 sites have no sample.",
  data_kind: "observed",
  status: "experimental",
  access_method:
    "GET /v1/geochem/sites (a box, a point's nearest sites, one element for mapping) and GET /v1/geochem/sites/{site_id} " +
    "(every element). Offline: the table imported into the snapshot. Live (LOAM_UPSTREAM=sda): the same static file from " +
    "GEOCHEM_URL (default the USGS download address), downloaded once, checked (header, unit row, row count) and kept 30 days.",
  documentation_url: DS801_URL,
  source_url: DEFAULT_GEOCHEM_URL,
  license: `Public domain: US Government work (USGS). Cite: ${DS801_CITATION}`,
  authentication: "none: public download, no key (snapshot mode reads a local copy).",
  operational: true,
  supported_properties: [...ELEMENT_PROPERTIES],
  limitations: [
    "One 0 to 5 cm sample per about 1,600 square kilometres: a site describes its own sample, not a field, a map unit or a search box around it.",
    "Concentrations are total or near-total element contents of the <2 mm fraction (most elements after a near-total four-acid digestion); they are not exchangeable, extractable, plant-available or bioaccessible amounts and must not be compared with soil-test values.",
    "The per-element analytical method and its limits are in Appendix 5 of the report, which is not served; measurement_method states only what the report says of all elements.",
    "Results below the reporting limit are censored ('<1'): value null with the limit in reporting_limit, never the limit as a value. 'N.S.' (no sample: not collected or lost in shipping) is no observation, with a warning naming the element.",
    "The A-horizon and C-horizon samples (Appendices 3 and 4) and the mineralogy are not served; the 0-5 cm table's mineralogy and carbon columns are empty.",
    "Sampled 2007 to 2011 (all but 6 of the 4,857 sites by 2010); land cover classes are from the 1992 National Land Cover Database; coordinates are given to 4 decimals (about 10 m).",
  ],
};
