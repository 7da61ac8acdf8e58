/**
 * USDA-NRCS SSURGO as Loam reads it: which chorizon column answers each canonical property, in what
 * unit, by what method. Adding a property is one row here (STYLE.md: mapping tables are data).
 */
import { LoamError, withProvider } from "../errors";
import type { UpstreamCache } from "../upstream/cache";
import type { UpstreamSource } from "../upstream/source";
import type { LogicalQuery } from "../upstream/queries";

export const SSURGO_PROVIDER = "usda_ssurgo";
export const SSURGO_ORGANIZATION = "USDA Natural Resources Conservation Service (NRCS), National Cooperative Soil Survey";
export const SSURGO_SOURCE_URL = "https://sdmdataaccess.nrcs.usda.gov/";
export const SSURGO_LICENSE = {
  name: "Public domain (US Government work, USDA-NRCS); acknowledge: Soil Survey Staff, Natural Resources Conservation Service, United States Department of Agriculture. Soil Survey Geographic (SSURGO) Database.",
  url: "https://www.nrcs.usda.gov/resources/data-and-reports/soil-survey-geographic-database-ssurgo",
};
export const SSURGO_SPATIAL_RESOLUTION =
  "Soil survey map-unit polygons, typically compiled at 1:12,000 to 1:24,000 (minimum delineations of roughly 0.4 to 2 ha); values belong to the map unit's components, not to the point.";

/** The factor that turns organic matter into organic carbon (and back); a convention, not a constant of nature. */
export const OM_TO_OC_FACTOR = 1.724;

const RV_METHOD =
  "SSURGO representative value (_r) of the component horizon: a soil scientist's estimate for the map-unit component, drawn from laboratory data, field observation and correlation, not a measurement at the point";

export interface SsurgoProperty {
  /** chorizon column stem; the value is `<stem>_r`, its range `<stem>_l` / `<stem>_h`. */
  column: string;
  /** Unit as SSURGO documents the column. */
  originalUnit: string;
  /** The canonical unit (equal numerically here: no conversion needed). */
  unit: string;
  method: string;
  /** Set for a property SSURGO does not report, derived from another column. */
  derivedFrom?: { property: string; formula: string; operation: string; factor: number; warning: string };
}

export const SSURGO_PROPERTIES: Record<string, SsurgoProperty> = {
  ph: { column: "ph1to1h2o", originalUnit: "pH", unit: "pH", method: `${RV_METHOD}; pH in 1:1 soil:water suspension` },
  organic_matter: { column: "om", originalUnit: "percent (by weight)", unit: "% (by weight)", method: `${RV_METHOD}; organic matter of the <2 mm fraction` },
  organic_carbon: {
    column: "om",
    originalUnit: "percent (by weight)",
    unit: "% (by weight)",
    method: `Derived from the SSURGO organic matter representative value (om_r) by the conventional factor ${OM_TO_OC_FACTOR}`,
    derivedFrom: {
      property: "organic_matter",
      operation: "derive_organic_carbon_from_organic_matter",
      formula: `organic_carbon = organic_matter / ${OM_TO_OC_FACTOR}`,
      factor: OM_TO_OC_FACTOR,
      warning: `Derived value, not a measurement: organic carbon = organic matter / ${OM_TO_OC_FACTOR} (the conventional 'Van Bemmelen' factor). The true ratio varies by soil (Pribyl 2010: median near 1.9, range about 1.4 to 2.5), so this value may be off by a third or more.`,
    },
  },
  sand: { column: "sandtotal", originalUnit: "percent of the <2 mm fraction", unit: "%", method: `${RV_METHOD}; total sand (0.05–2 mm), USDA particle-size classes` },
  silt: { column: "silttotal", originalUnit: "percent of the <2 mm fraction", unit: "%", method: `${RV_METHOD}; total silt (0.002–0.05 mm)` },
  clay: { column: "claytotal", originalUnit: "percent of the <2 mm fraction", unit: "%", method: `${RV_METHOD}; total clay (<0.002 mm)` },
  bulk_density: { column: "dbthirdbar", originalUnit: "g/cc", unit: "g/cm3", method: `${RV_METHOD}; bulk density of the <2 mm fraction at 1/3 bar water retention` },
  // meq/100 g equals cmol(+)/kg numerically (DESIGN §4): no transformation is recorded.
  cec: { column: "cec7", originalUnit: "milliequivalents per 100 grams", unit: "cmol(+)/kg", method: `${RV_METHOD}; cation-exchange capacity by NH4OAc at pH 7` },
  ec: { column: "ec", originalUnit: "decisiemens per meter", unit: "dS/m", method: `${RV_METHOD}; electrical conductivity of the saturation extract` },
};

/** Fetch the SSURGO answer for a point through the cache (which shares and stores it). */
export async function ssurgoPoint(cache: UpstreamCache, source: UpstreamSource, latitude: number, longitude: number) {
  const query: LogicalQuery = { kind: "ssurgo_point", latitude, longitude };
  try {
    return await cache.get(SSURGO_PROVIDER, query, () => source.run(query));
  } catch (error) {
    throw error instanceof LoamError ? withProvider(error, SSURGO_PROVIDER) : error;
  }
}
