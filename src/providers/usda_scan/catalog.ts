/**
 * The catalog record of usda_scan (GET /v1/providers), its citations and the names of its sources
 * (docs/decisions.md#usda-scan).
 */
import type { ProviderRecord } from "../../catalog/model";
import type { SettingDeclaration } from "../../config";

export const SCAN_PROVIDER_ID = "usda_scan";
export const SCAN_ORGANIZATION = "USDA Natural Resources Conservation Service (NRCS), National Water and Climate Center";

export const SCAN_SETTING = {
  name: "SCAN_URL",
  kind: "url",
  default: "https://wcc.sc.egov.usda.gov/awdbRestApi/services/v1",
  help: "the NRCS AWDB REST API serving SCAN stations and data (live mode)",
} as const satisfies SettingDeclaration;

/** The network's reference, which ISMN asks users of its SCAN files to cite. */
export const SCAN_CITATION =
  "Schaefer, G.L., Cosh, M.H., and Jackson, T.J., 2007, The USDA Natural Resources Conservation Service Soil Climate Analysis Network (SCAN): Journal of Atmospheric and Oceanic Technology 24, 2073-2077, https://doi.org/10.1175/2007JTECHA930.1";
/** The archive's reference (the three series in the snapshot are ISMN's redistribution of SCAN). */
export const ISMN_CITATION =
  "Dorigo, W., and others, 2021, The International Soil Moisture Network: serving Earth system science for over a decade: Vadose Zone Journal 20, e20154, https://doi.org/10.1002/vzj2.20154";
export const AWDB_CITATION = "USDA-NRCS National Water and Climate Center, Air and Water Database (AWDB) REST API, SCAN network, https://wcc.sc.egov.usda.gov/awdbRestApi/";

export const SCAN_DOCUMENTATION_URL = "https://www.nrcs.usda.gov/resources/data-and-reports/soil-climate-analysis-network";

/** Source names used in disagreements (which source said what). */
export const SOURCE_AWDB = "AWDB station metadata (via soilDB)";
export const SOURCE_AWDB_LIVE = "AWDB /stations";
export const SOURCE_INVENTORY = "NWCC station inventory";
export const SOURCE_ISMN = "ISMN file header";

export const SCAN_CATALOG_RECORD: ProviderRecord = {
  id: SCAN_PROVIDER_ID,
  name: "Soil Climate Analysis Network (SCAN)",
  organization: SCAN_ORGANIZATION,
  coverage:
    "About 200 automated stations in most US states, Puerto Rico and the US Virgin Islands, measuring soil moisture and " +
    "soil temperature at 2, 4, 8, 20 and 40 inches (5.08 to 101.6 cm). Offline: the metadata of every active SCAN " +
    "station and the hourly series of the ISMN files the snapshot was given (as ISMN redistributes them).",
  data_kind: "observed",
  status: "experimental",
  access_method:
    "GET /v1/stations (a box or a point's nearest stations), GET /v1/stations/{station_triplet} (sensors, the lab pedon, " +
    "the survey at the point) and GET /v1/stations/{station_triplet}/series (hourly values or daily means). Offline: the " +
    "snapshot's station table and ISMN series. Live (LOAM_UPSTREAM=sda): the AWDB REST API at SCAN_URL (/stations, /data).",
  documentation_url: SCAN_DOCUMENTATION_URL,
  source_url: "https://wcc.sc.egov.usda.gov/awdbRestApi/swagger-ui/index.html",
  license: `Public domain: US Government work (USDA-NRCS). Cite: ${SCAN_CITATION}. Series from ISMN files also cite: ${ISMN_CITATION}`,
  authentication: "none: public service, no key.",
  operational: true,
  supported_properties: ["soil_moisture", "soil_temperature"],
  limitations: [
    "A station measures its own site: its values are not representative of a field, a map unit or a box around it.",
    "Values within the last 30 days are provisional (not yet quality-controlled) and may change; they are cached for an hour only.",
    "Dielectric soil-moisture sensors are calibrated for typical soils; in soils unlike the calibration the volumetric water content may be biased.",
    "Gaps stay gaps: hours the source does not report have no value; daily values are means of the hours reported, with their count.",
    "ISMN flags are served as reported; the meaning of ISMN's 'U' flag is not documented in the sources Loam read.",
    "Offline, only the 2-inch soil moisture of stations 2057, 2092 and 2015 (2007 to 2013) has values; every other series needs live mode.",
  ],
};
