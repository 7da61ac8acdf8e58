/**
 * NCSS / Kellogg Soil Survey Laboratory pedon data as Loam reads it: which Lab Data Mart column
 * answers each canonical property, in what unit, by what method, and which column holds the KSSL
 * method code. Adding a property is one row here (STYLE.md: mapping tables are data).
 */
import { LoamError, withProvider } from "../errors";
import { LAB_PROVIDER_ID } from "../catalog/providers";
import type { UpstreamCache } from "../upstream/cache";
import type { UpstreamSource } from "../upstream/source";
import { LAB_PROPERTY_COLUMNS, type LogicalQuery, type PedonKey } from "../upstream/queries";

export const KSSL_PROVIDER = LAB_PROVIDER_ID;
export const KSSL_ORGANIZATION =
  "USDA-NRCS National Soil Survey Center, Kellogg Soil Survey Laboratory (KSSL), for the National Cooperative Soil Survey (NCSS)";
export const KSSL_SOURCE_URL = "https://ncsslabdatamart.sc.egov.usda.gov/";

/** The factor that turns organic carbon into organic matter; a convention, not a constant of nature. */
export const OC_TO_OM_FACTOR = 1.724;

/** One Lab Data Mart column that can answer a property. */
export interface LabColumn {
  table: "lab_chemical_properties" | "lab_physical_properties";
  column: (typeof LAB_PROPERTY_COLUMNS)[number]["column"];
  /** Unit as the LDM documents the column (equal to the canonical unit: the KSSL exports need no conversion). */
  unit: string;
  method: string;
  dataKind: "observed" | "derived";
  /** Stated on every observation read from this column. */
  warning?: string;
}

export interface KsslProperty {
  /** The canonical unit of the served value. */
  unit: string;
  /** Columns in order of preference: the first with a reported result answers. */
  columns: LabColumn[];
  /** Set when the property is computed from the column's result rather than read. */
  conversion?: { operation: string; factor: number; formula: string; warning: string };
}

const ESTIMATED_OC_WARNING =
  "Derived value: no Walkley-Black organic carbon was reported for this layer, so this is KSSL's estimated organic carbon (total carbon by dry combustion minus carbonate carbon from the CaCO3 equivalent). It is calculated, not measured, and is not interchangeable with Walkley-Black organic carbon, which recovers only part of the organic carbon.";

const WALKLEY_BLACK: LabColumn = {
  table: "lab_chemical_properties",
  column: "organic_carbon_walkley_black",
  unit: "% (by weight)",
  method: "Organic carbon by Walkley-Black wet oxidation (acid dichromate digestion) of the <2 mm fraction",
  dataKind: "observed",
};

const ESTIMATED_OC: LabColumn = {
  table: "lab_chemical_properties",
  column: "estimated_organic_carbon",
  unit: "% (by weight)",
  method: "KSSL estimated organic carbon: total carbon by dry combustion minus carbonate carbon (CaCO3 equivalent x 0.12), calculated by the laboratory",
  dataKind: "derived",
  warning: ESTIMATED_OC_WARNING,
};

const PARTICLE_SIZE = "Particle-size analysis of the <2 mm fraction after removal of organic matter and soluble salts (the KSSL standard is the pipette method; the method code names the procedure used)";

export const KSSL_PROPERTIES: Record<string, KsslProperty> = {
  ph: {
    unit: "pH",
    columns: [{ table: "lab_chemical_properties", column: "ph_h2o", unit: "pH", method: "pH, 1:1 water (soil:water suspension, 1:1 by weight)", dataKind: "observed" }],
  },
  organic_carbon: { unit: "% (by weight)", columns: [WALKLEY_BLACK, ESTIMATED_OC] },
  organic_matter: {
    unit: "% (by weight)",
    columns: [WALKLEY_BLACK, ESTIMATED_OC],
    conversion: {
      operation: "derive_organic_matter_from_organic_carbon",
      factor: OC_TO_OM_FACTOR,
      formula: `organic_matter = organic_carbon * ${OC_TO_OM_FACTOR}`,
      warning: `Derived value, not a measurement: organic matter = organic carbon x ${OC_TO_OM_FACTOR} (the conventional 'Van Bemmelen' factor). The true ratio varies by soil (Pribyl 2010: median near 1.9, range about 1.4 to 2.5), so this value may be off by a third or more.`,
    },
  },
  sand: { unit: "%", columns: [{ table: "lab_physical_properties", column: "sand_total", unit: "% of the <2 mm fraction", method: `${PARTICLE_SIZE}; total sand, 0.05-2 mm`, dataKind: "observed" }] },
  silt: { unit: "%", columns: [{ table: "lab_physical_properties", column: "silt_total", unit: "% of the <2 mm fraction", method: `${PARTICLE_SIZE}; total silt, 0.002-0.05 mm`, dataKind: "observed" }] },
  clay: { unit: "%", columns: [{ table: "lab_physical_properties", column: "clay_total", unit: "% of the <2 mm fraction", method: `${PARTICLE_SIZE}; total clay, <0.002 mm`, dataKind: "observed" }] },
  bulk_density: {
    unit: "g/cm3",
    columns: [
      { table: "lab_physical_properties", column: "bulk_density_third_bar", unit: "g/cm3", method: "Bulk density of the <2 mm fraction at 1/3 bar (33 kPa) water retention (the KSSL standard is the coated-clod method)", dataKind: "observed" },
    ],
  },
  // meq/100 g equals cmol(+)/kg numerically (DESIGN §4): no transformation is recorded.
  cec: { unit: "cmol(+)/kg", columns: [{ table: "lab_chemical_properties", column: "cec_nh4_ph_7", unit: "cmol(+)/kg", method: "Cation exchange capacity by 1 M ammonium acetate (NH4OAc) buffered at pH 7", dataKind: "observed" }] },
  total_nitrogen: { unit: "%", columns: [{ table: "lab_chemical_properties", column: "total_nitrogen_ncs", unit: "% (by weight)", method: "Total nitrogen by dry combustion", dataKind: "observed" }] },
  ec: { unit: "dS/m", columns: [{ table: "lab_chemical_properties", column: "electrical_conductivity_satx", unit: "dS/m", method: "Electrical conductivity of the saturated-paste extract (ECe)", dataKind: "observed" }] },
};

/** The LDM column holding the KSSL method code of a result column, or null where the LDM has none. */
export function methodColumnOf(column: string): string | null {
  return LAB_PROPERTY_COLUMNS.find((p) => p.column === column)?.method ?? null;
}

async function fetchThroughCache(cache: UpstreamCache, source: UpstreamSource, query: LogicalQuery) {
  try {
    return await cache.get(KSSL_PROVIDER, query, () => source.run(query));
  } catch (error) {
    throw error instanceof LoamError ? withProvider(error, KSSL_PROVIDER) : error;
  }
}

/** Pedons with coordinates inside the bbox, ordered by pedon key: at most `limit + 1` rows (the extra one says "more exist"). */
export function ksslBbox(cache: UpstreamCache, source: UpstreamSource, bbox: [number, number, number, number], limit: number) {
  return fetchThroughCache(cache, source, { kind: "lab_bbox", bbox, limit });
}

/** One pedon with its layers and lab results, one row per layer (no rows: no such pedon). */
export function ksslPedon(cache: UpstreamCache, source: UpstreamSource, pedonKey: PedonKey) {
  return fetchThroughCache(cache, source, { kind: "lab_pedon", pedonKey });
}
