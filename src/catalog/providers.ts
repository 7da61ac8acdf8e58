/**
 * The provider catalog served by `GET /v1/providers` (spec §2.3, DESIGN §1).
 *
 * This file is data. Every statement in it is meant to be true of the real upstream system; where a
 * value is a judgment rather than a fact, a comment says so. Roles (which endpoint family a provider
 * serves) are kept in a separate map because ProviderRecord allows no extra fields.
 */
import type { ProviderRecord } from "./model";

/** The default mapped-survey provider ({survey_provider_id}). */
export const SURVEY_PROVIDER_ID = "usda_ssurgo";
/** The default laboratory pedon provider ({lab_provider_id}). */
export const LAB_PROVIDER_ID = "usda_kssl";
/** Accepted wherever a lab provider id is accepted; responses always name LAB_PROVIDER_ID. */
export const LAB_PROVIDER_ALIASES = ["kssl", "ncss_lab", "ncss_kssl"] as const;

/** Acknowledgement USDA-NRCS asks for in products derived from SSURGO and KSSL data (data README). */
export const USDA_ACKNOWLEDGEMENT =
  "Soil data: Soil Survey Staff, Natural Resources Conservation Service, United States Department of Agriculture. " +
  "Soil Survey Geographic (SSURGO) Database and NCSS Kellogg Soil Survey Laboratory data.";

/** License text of USDA-NRCS data (FGDC metadata: Access_Constraints none; acknowledgement requested). */
export const USDA_NRCS_LICENSE =
  "Public domain: US Government work (USDA-NRCS), public information with no access or use constraints " +
  `beyond acknowledging USDA-NRCS as the data source. Required acknowledgement: "${USDA_ACKNOWLEDGEMENT}"`;

/** Limits of USDA Soil Data Access that both USDA providers inherit (wire-format notes §4-5). */
const SDA_LIMITS = [
  "Soil Data Access answers at most 100,000 rows and about 32 MB of serialized JSON per query; Loam's queries are fixed and bounded well below that.",
  "Soil Data Access has a nightly maintenance window, 12:30 to 12:45 AM US Central time, when it answers with a maintenance notice instead of data; Loam then reports an upstream error (retryable) or serves a stale cached answer with a warning.",
] as const;

export const PROVIDERS: readonly ProviderRecord[] = [
  {
    id: SURVEY_PROVIDER_ID,
    name: "SSURGO: Soil Survey Geographic Database",
    organization: "USDA Natural Resources Conservation Service (NRCS), National Cooperative Soil Survey",
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
    source_url: "https://sdmdataaccess.nrcs.usda.gov/",
    license: USDA_NRCS_LICENSE,
    authentication: "none: public service, no key (Soil Data Access is an open HTTPS endpoint; snapshot mode reads a local file).",
    operational: true,
    supported_properties: ["ph", "organic_matter", "organic_carbon", "sand", "silt", "clay", "bulk_density", "cec", "ec"],
    limitations: [
      "Mapped values are the representative values (_r; _l and _h are the typical low and high) of the components and horizons of the map unit that contains the point, not measurements at the point. A map unit holds several components and undelineated inclusions; the soil at the point may be any of them.",
      "Point queries exclude STATSGO2 (the generalized 1:250,000 dataset, areasymbol 'US'): where no SSURGO survey is complete the answer is empty, not a coarser STATSGO2 value.",
      "Survey vintages differ between survey areas: each area has its own version date (sacatalog.saverest, given in the citation), areas were mapped in different decades, and adjacent areas may not join exactly at their boundaries.",
      "organic_carbon is derived (om_r / 1.724), not reported by SSURGO; total nitrogen is not part of SSURGO.",
      "USDA states that these data and their interpretations are intended for planning purposes only; map-unit delineations are not precise enough for site-specific decisions without an on-site investigation.",
      ...SDA_LIMITS,
    ],
  },
  {
    id: LAB_PROVIDER_ID,
    name: "NCSS Soil Characterization Database (Kellogg Soil Survey Laboratory pedon data)",
    organization:
      "USDA-NRCS National Soil Survey Center, Kellogg Soil Survey Laboratory (KSSL), for the National Cooperative Soil Survey (NCSS)",
    coverage:
      "Laboratory-characterized pedons (points), mostly in the United States and its territories, with a small " +
      "number from other countries; NRCS describes more than 65,000 locations. Density is uneven: pedons cluster " +
      "where surveys and projects sampled. In offline snapshot mode only the pedons of the snapshot are served; " +
      "responses name that coverage in their warnings.",
    data_kind: "observed",
    status: "experimental",
    access_method:
      "NCSS Lab Data Mart tables (lab_combine_nasis_ncss, lab_layer, lab_physical_properties, " +
      "lab_chemical_properties) through USDA Soil Data Access (SDA) REST: T-SQL over HTTPS POST, " +
      "JSON+COLUMNNAME+METADATA, or an offline snapshot of Lab Data Mart-named CSV tables (LOAM_UPSTREAM=snapshot).",
    documentation_url: "https://ncsslabdatamart.sc.egov.usda.gov/datause.aspx",
    source_url: "https://ncsslabdatamart.sc.egov.usda.gov/",
    license: USDA_NRCS_LICENSE,
    authentication: "none: public service, no key (Soil Data Access is an open HTTPS endpoint; snapshot mode reads a local file).",
    operational: true,
    supported_properties: [
      "ph",
      "organic_carbon",
      "organic_matter",
      "sand",
      "silt",
      "clay",
      "bulk_density",
      "cec",
      "total_nitrogen",
      "ec",
    ],
    limitations: [
      "Pedon coordinates are provider records whose accuracy varies, especially for older pedons (some were located from maps or recorded to the nearest minute; some pedons have none); horizontal accuracy is usually unknown.",
      "A pedon is a point. It is not representative of its search box, field, soil series or map unit without further evidence.",
      "Censored results (e.g. \"<0.05\") are kept as reported: value null, the reported string, the qualifier and the reporting limit. A censored result is never replaced by its limit.",
      "Walkley-Black organic carbon is no longer run on newer samples: KSSL measures total carbon by dry combustion and estimates organic carbon as total carbon minus carbonate carbon. Loam serves that estimate as data_kind derived, with its method stated, when no Walkley-Black value exists.",
      "Only selected analyses were requested for many pedons, so a layer often lacks some properties; an absent property is not a zero.",
      "Laboratory methods changed over the decades; the method codes (Kellogg Soil Survey Laboratory Methods Manual, Soil Survey Investigations Report No. 42) identify the procedure and must be checked before comparing pedons. Some records come from cooperating laboratories.",
      "Some measurements fall outside the working range of the standard method; for example clay dispersion is incomplete in soils from volcanic materials or rich in iron oxides, gypsum or carbonates.",
      "The laboratory tables do not include the companion morphological pedon descriptions (field horizon colors, structure, field texture); they are not joined.",
      ...SDA_LIMITS,
    ],
  },
  {
    id: "usda_osd",
    name: "Official Soil Series Descriptions (OSD) and Series Classification (SC) database",
    organization: "USDA Natural Resources Conservation Service (NRCS), Soil Survey Staff, National Cooperative Soil Survey",
    coverage:
      "Every soil series established in the United States and its territories (more than 20,000 series), plus " +
      "tentative and inactive series in the Series Classification database.",
    // Judgment: an OSD is a described series concept (a typical pedon plus ranges in characteristics), neither
    // a mapped survey value nor a lab observation, so it gets its own kind.
    data_kind: "descriptive",
    status: "planned",
    access_method:
      "Planned: OSD documents by series name from the NRCS Official Series Description service, and the " +
      "Series Classification records (taxonomic class, status, benchmark flag). No upstream call is made today.",
    documentation_url: "https://www.nrcs.usda.gov/resources/data-and-reports/official-soil-series-descriptions-osds",
    source_url: "https://soilseries.sc.egov.usda.gov/",
    license: USDA_NRCS_LICENSE,
    authentication: "none: public web service, no key.",
    operational: false,
    // Judgment: the typical pedon of an OSD gives a texture class and usually a reaction (pH) per horizon.
    supported_properties: ["texture_class", "ph"],
    limitations: [
      "Not live yet: OSDs are semi-structured narrative text, and turning typical-pedon horizons and the 'Range in Characteristics' into depth-resolved values needs a parser validated against many series.",
      "An OSD describes the central concept and allowed ranges of a series, not a measurement at any point; the typical pedon location is approximate.",
      "Series are revised, combined and made inactive over time; a series name alone does not say which revision a survey used.",
    ],
  },
  {
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
  },
  {
    id: "usgs_geochem",
    name: "Geochemical and Mineralogical Survey of Soils of the Conterminous United States (USGS Data Series 801)",
    organization: "U.S. Geological Survey (USGS)",
    coverage:
      "Conterminous United States: 4,857 sites at a density of about one site per 1,600 square kilometres, sampled " +
      "2007 to 2010; at each site a 0 to 5 cm sample, a composite of the soil A horizon and a deeper (usually C " +
      "horizon) sample.",
    data_kind: "observed",
    status: "planned",
    access_method:
      "Planned: import of the published data tables of USGS Data Series 801 (Smith and others, 2013; maps in " +
      "Scientific Investigations Report 2014-5108, Smith and others, 2014). A static dataset, not a query service.",
    documentation_url: "https://pubs.usgs.gov/ds/801/",
    source_url: "https://pubs.usgs.gov/ds/801/downloads/",
    license:
      "Public domain: US Government work (USGS). Cite: Smith, D.B., Cannon, W.F., Woodruff, L.G., Solano, F., " +
      "Kilburn, J.E., and Fey, D.L., 2013, Geochemical and mineralogical data for soils of the conterminous United " +
      "States: U.S. Geological Survey Data Series 801, https://doi.org/10.3133/ds801.",
    authentication: "none: public download, no key.",
    operational: false,
    // Judgment: only the elements whose vocabulary meaning is a total concentration are listed. The survey's
    // Ca, Mg, K, Na, P, Fe, Mn, Zn and Cu are total contents, not the exchangeable or extractable quantities the
    // vocabulary's base-cation, phosphorus and micronutrient ids describe.
    supported_properties: ["arsenic", "selenium"],
    limitations: [
      "Not live yet: needs an importer, and its sample depths (0 to 5 cm, A horizon, C horizon) are not fixed depth intervals, so depth handling must be designed.",
      "Concentrations are total or near-total element contents of the <2 mm fraction (strong-acid digestions); they are not exchangeable or plant-available amounts and must not be compared with them.",
      "Sites are tens of kilometres apart: a site describes its own samples, not its surroundings. Results below the detection limit are reported as censored values.",
    ],
  },
  {
    id: "isric_soilgrids",
    name: "SoilGrids 250 m (version 2.0)",
    organization: "ISRIC - World Soil Information",
    coverage:
      "Global land areas on a 250 m grid (Interrupted Goode Homolosine projection), at six depth intervals: 0-5, " +
      "5-15, 15-30, 30-60, 60-100 and 100-200 cm.",
    data_kind: "modeled",
    status: "planned",
    access_method:
      "Planned: the SoilGrids cloud-optimized GeoTIFF / VRT rasters over HTTPS (files.isric.org, read with range " +
      "requests), or the ISRIC SoilGrids REST point query (beta, fair-use limited): mean, median and 5 % / 95 % " +
      "quantile predictions per depth interval.",
    documentation_url: "https://www.isric.org/explore/soilgrids",
    source_url: "https://files.isric.org/soilgrids/latest/data/",
    license:
      "CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/). Cite: Poggio, L., de Sousa, L.M., Batjes, N.H., " +
      "Heuvelink, G.B.M., Kempen, B., Ribeiro, E., and Rossiter, D., 2021, SoilGrids 2.0: producing soil " +
      "information for the globe with quantified spatial uncertainty, SOIL 7, 217-240, https://doi.org/10.5194/soil-7-217-2021.",
    authentication: "none: public files and API, no key (ISRIC asks for fair use of the REST API).",
    operational: false,
    supported_properties: ["ph", "organic_carbon", "sand", "silt", "clay", "bulk_density", "cec", "total_nitrogen"],
    limitations: [
      "Not live yet: needs raster reads in the Homolosine projection and a modeled-data path that carries the prediction quantiles as uncertainty.",
      "Values are machine-learning predictions, not measurements; at 250 m they smooth local variation, and prediction intervals are wide where training profiles are sparse.",
      "Stored as scaled integers in non-standard units (pH x 10, dg/kg, cg/cm3, mmol(c)/kg, g/kg, cg/kg) that must be converted.",
      "The training profiles were measured by many laboratories and methods, harmonized only approximately; values are not method-specific.",
    ],
  },
];

/** Which endpoint family a provider serves (kept apart from ProviderRecord, which allows no extra fields). */
export type ProviderRole = "mapped_location" | "lab_pedons" | "planned";

export const PROVIDER_ROLES: Readonly<Record<string, ProviderRole>> = {
  [SURVEY_PROVIDER_ID]: "mapped_location",
  [LAB_PROVIDER_ID]: "lab_pedons",
  usda_osd: "planned",
  usda_scan: "planned",
  usgs_geochem: "planned",
  isric_soilgrids: "planned",
};

const BY_ID = new Map<string, ProviderRecord>(PROVIDERS.map((p) => [p.id, p]));

/** Canonical provider id for an id or a lab alias (case-sensitive); undefined when unknown. */
export function canonicalProviderId(idOrAlias: string): string | undefined {
  if (BY_ID.has(idOrAlias)) return idOrAlias;
  if ((LAB_PROVIDER_ALIASES as readonly string[]).includes(idOrAlias)) return LAB_PROVIDER_ID;
  return undefined;
}

/** The provider record for an id or a lab alias (case-sensitive); the canonical record for an alias. */
export function findProvider(idOrAlias: string): ProviderRecord | undefined {
  const id = canonicalProviderId(idOrAlias);
  return id === undefined ? undefined : BY_ID.get(id);
}

/** The role of a provider (id or alias); undefined when the provider is unknown. */
export function providerRole(idOrAlias: string): ProviderRole | undefined {
  const id = canonicalProviderId(idOrAlias);
  return id === undefined ? undefined : PROVIDER_ROLES[id];
}

/** Ids of the providers that answer data requests today (ApiMetadata.supported_providers). */
export const OPERATIONAL_PROVIDER_IDS: readonly string[] = PROVIDERS.filter((p) => p.operational).map((p) => p.id);
