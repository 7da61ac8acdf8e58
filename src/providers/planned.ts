/**
 * Providers listed in the catalog that serve no data yet (role planned). Each becomes operational by
 * getting its own folder (src/providers/<id>/) and replacing its entry here in the registry.
 */
import type { PlannedProvider } from "./provider";

const planned = (record: PlannedProvider["record"]): PlannedProvider => ({ id: record.id, aliases: [], role: "planned", record });

export const PLANNED_PROVIDERS: readonly PlannedProvider[] = [
  planned({
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
  }),
];
