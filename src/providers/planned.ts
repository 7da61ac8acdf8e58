/**
 * Providers listed in the catalog that serve no data yet (role planned). Each becomes operational by
 * getting its own folder (src/providers/<id>/) and replacing its entry here in the registry.
 */
import type { PlannedProvider } from "./provider";

const planned = (record: PlannedProvider["record"]): PlannedProvider => ({ id: record.id, aliases: [], role: "planned", record });

export const PLANNED_PROVIDERS: readonly PlannedProvider[] = [
  planned({
    id: "usda_scan",
    name: "Soil Climate Analysis Network (SCAN)",
    organization: "USDA Natural Resources Conservation Service (NRCS), National Water and Climate Center",
    coverage:
      "Automated monitoring stations (on the order of two hundred) in most US states, Puerto Rico and the US Virgin " +
      "Islands; each station is a point record.",
    data_kind: "observed",
    status: "planned",
    access_method:
      "Planned: the NRCS Air and Water Database (AWDB) REST API, station time series of soil moisture and soil " +
      "temperature at standard depths (2, 4, 8, 20 and 40 inches, about 5, 10, 20, 50 and 100 cm) with weather " +
      "elements, hourly and daily.",
    documentation_url: "https://www.nrcs.usda.gov/resources/data-and-reports/soil-climate-analysis-network",
    source_url: "https://wcc.sc.egov.usda.gov/awdbRestApi/swagger-ui/index.html",
    license: "Public domain: US Government work (USDA-NRCS); acknowledge the USDA-NRCS National Water and Climate Center as the source.",
    authentication: "none: public service, no key.",
    operational: false,
    // SCAN measures soil water content and soil temperature, which are not (yet) in the property vocabulary.
    supported_properties: [],
    limitations: [
      "Not live yet: SCAN data are time series, and the v1 contract has no time-series endpoint (sensor time series are a planned capability).",
      "Its variables (volumetric soil water content, soil temperature, weather elements) are not yet in Loam's property vocabulary.",
      "Recent data are provisional until quality-controlled; dielectric soil-moisture sensors need soil-specific calibration; a station represents its site only.",
    ],
  }),
];
