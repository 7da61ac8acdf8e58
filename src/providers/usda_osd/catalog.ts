/**
 * The catalog record of usda_osd (GET /v1/providers).
 */
import type { ProviderRecord } from "../../catalog/model";
import { USDA_NRCS_LICENSE } from "../usda";
import { OSD_ORGANIZATION, OSD_PROVIDER_ID } from "./series";

export const OSD_CATALOG_RECORD: ProviderRecord = {
  id: OSD_PROVIDER_ID,
  name: "Official Soil Series Descriptions (OSD), as parsed by ncss-tech SoilKnowledgeBase",
  organization: OSD_ORGANIZATION,
  coverage:
    "Every soil series with an Official Series Description in the United States and its territories (more than " +
    "20,000 series), by name. In offline snapshot mode only the series of the snapshot are served (the series of " +
    "its SSURGO components and KSSL pedons); a series the snapshot lacks is a 404.",
  // An OSD is a described series concept: the typical pedon and its ranges belong to the survey, like a
  // map-unit component, not to a measurement at a place (the series answer says mapped_survey too).
  data_kind: "mapped_survey",
  status: "experimental",
  access_method:
    "GET /v1/series/{name}: the SoilKnowledgeBase JSON parse of the OSD (inst/extdata/OSD/<letter>/<NAME>.json) " +
    "over HTTPS from GitHub (OSD_URL), or an offline snapshot of the same files (LOAM_UPSTREAM=snapshot). " +
    "Munsell colours are converted to sRGB with the Munsell renotation table.",
  documentation_url: "https://www.nrcs.usda.gov/resources/data-and-reports/official-soil-series-descriptions-osds",
  source_url: "https://github.com/ncss-tech/SoilKnowledgeBase",
  license: USDA_NRCS_LICENSE,
  authentication: "none: public files, no key (snapshot mode reads a local file).",
  operational: true,
  // Texture class and reaction class are served per horizon as the description words them, not as
  // values of the property vocabulary; no property is served through the observation endpoints.
  supported_properties: [],
  limitations: [
    "An OSD describes the central concept and allowed ranges of a series, not a measurement at any point; the typical pedon location is approximate.",
    "Horizon depths, colours, texture, structure and reaction classes are SoilKnowledgeBase's automatic parse of the typical pedon text; the narrative of each horizon is authoritative where they differ, and some fields are missing where the parser found none.",
    "sRGB colours are computed from the Munsell notation with the 1943 renotation table (illuminant C, Bradford-adapted to D65), interpolated between table chips; a printed chip, a screen and a soil in daylight differ.",
    "Series are revised, combined and made inactive over time; the citation names the revision served, which may not be the one a survey used.",
    "Series Classification records (tentative and inactive series, benchmark flags) are not served.",
  ],
};
