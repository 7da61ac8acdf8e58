/**
 * NCSS / Kellogg Soil Survey Laboratory pedon data as Loam reads it: the column table
 * (docs/decisions.md#column-tables). Which Lab Data Mart column answers each canonical property, in
 * what unit, by what method, and which column holds the KSSL method code; and every other column of
 * the bbox and pedon answers with its table and meaning. The SDA SELECTs, the snapshot SELECTs, the
 * normalizer and the catalog's supported_properties are generated from these tables. Adding a
 * property is one row here.
 */
import { OM_OC_FACTOR } from "../../catalog/properties";
import type { PropertyColumn } from "../provider";

/** One Lab Data Mart column that can answer a property. */
export interface LabColumn {
  table: "lab_chemical_properties" | "lab_physical_properties";
  column: string;
  /** Unit as the LDM documents the column (equal to the canonical unit: the KSSL exports need no conversion). */
  unit: string;
  method: string;
  /** The LDM column holding the KSSL method code of this result; null where the LDM has none. */
  methodColumn: string | null;
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
  methodColumn: "oc_walkley_black_method",
  unit: "% (by weight)",
  method: "Organic carbon by Walkley-Black wet oxidation (acid dichromate digestion) of the <2 mm fraction",
  dataKind: "observed",
};

const ESTIMATED_OC: LabColumn = {
  table: "lab_chemical_properties",
  column: "estimated_organic_carbon",
  methodColumn: null,
  unit: "% (by weight)",
  method: "KSSL estimated organic carbon: total carbon by dry combustion minus carbonate carbon (CaCO3 equivalent x 0.12), calculated by the laboratory",
  dataKind: "derived",
  warning: ESTIMATED_OC_WARNING,
};

const PARTICLE_SIZE = "Particle-size analysis of the <2 mm fraction after removal of organic matter and soluble salts (the KSSL standard is the pipette method; the method code names the procedure used)";

export const KSSL_PROPERTIES: Record<string, KsslProperty> = {
  ph: {
    unit: "pH",
    columns: [{ table: "lab_chemical_properties", column: "ph_h2o", methodColumn: "ph_h2o_method", unit: "pH", method: "pH, 1:1 water (soil:water suspension, 1:1 by weight)", dataKind: "observed" }],
  },
  organic_carbon: { unit: "% (by weight)", columns: [WALKLEY_BLACK, ESTIMATED_OC] },
  organic_matter: {
    unit: "% (by weight)",
    columns: [WALKLEY_BLACK, ESTIMATED_OC],
    conversion: {
      operation: "derive_organic_matter_from_organic_carbon",
      factor: OM_OC_FACTOR,
      formula: `organic_matter = organic_carbon * ${OM_OC_FACTOR}`,
      warning: `Derived value, not a measurement: organic matter = organic carbon x ${OM_OC_FACTOR} (the conventional 'Van Bemmelen' factor). The true ratio varies by soil (Pribyl 2010: median near 1.9, range about 1.4 to 2.5), so this value may be off by a third or more.`,
    },
  },
  sand: { unit: "%", columns: [{ table: "lab_physical_properties", column: "sand_total", methodColumn: "particle_size_method", unit: "% of the <2 mm fraction", method: `${PARTICLE_SIZE}; total sand, 0.05-2 mm`, dataKind: "observed" }] },
  silt: { unit: "%", columns: [{ table: "lab_physical_properties", column: "silt_total", methodColumn: "particle_size_method", unit: "% of the <2 mm fraction", method: `${PARTICLE_SIZE}; total silt, 0.002-0.05 mm`, dataKind: "observed" }] },
  clay: { unit: "%", columns: [{ table: "lab_physical_properties", column: "clay_total", methodColumn: "particle_size_method", unit: "% of the <2 mm fraction", method: `${PARTICLE_SIZE}; total clay, <0.002 mm`, dataKind: "observed" }] },
  bulk_density: {
    unit: "g/cm3",
    columns: [
      { table: "lab_physical_properties", column: "bulk_density_third_bar", methodColumn: "bulk_density_third_bar_method", unit: "g/cm3", method: "Bulk density of the <2 mm fraction at 1/3 bar (33 kPa) water retention (the KSSL standard is the coated-clod method)", dataKind: "observed" },
    ],
  },
  // meq/100 g equals cmol(+)/kg numerically (docs/decisions.md#units): no transformation is recorded.
  cec: { unit: "cmol(+)/kg", columns: [{ table: "lab_chemical_properties", column: "cec_nh4_ph_7", methodColumn: "cec_nh4_ph_7_method", unit: "cmol(+)/kg", method: "Cation exchange capacity by 1 M ammonium acetate (NH4OAc) buffered at pH 7", dataKind: "observed" }] },
  total_nitrogen: { unit: "%", columns: [{ table: "lab_chemical_properties", column: "total_nitrogen_ncs", methodColumn: "total_nitrogen_ncs_method", unit: "% (by weight)", method: "Total nitrogen by dry combustion", dataKind: "observed" }] },
  // meq/100 g = cmol(+)/kg, as for cec. KSSL does not report NH4OAc calcium for samples with carbonates or soluble salts.
  calcium: { unit: "cmol(+)/kg", columns: [{ table: "lab_chemical_properties", column: "ca_nh4_ph_7", methodColumn: "ca_nh4_ph_7_method", unit: "cmol(+)/kg", method: "Exchangeable calcium extracted by 1 M ammonium acetate (NH4OAc) buffered at pH 7", dataKind: "observed" }] },
  potassium: { unit: "cmol(+)/kg", columns: [{ table: "lab_chemical_properties", column: "k_nh4_ph_7", methodColumn: "k_nh4_ph_7_method", unit: "cmol(+)/kg", method: "Exchangeable potassium extracted by 1 M ammonium acetate (NH4OAc) buffered at pH 7", dataKind: "observed" }] },
  // Extractable phosphorus by its extractant: two quantities, two ids (docs/decisions.md#vocabulary).
  phosphorus_mehlich3: { unit: "mg/kg", columns: [{ table: "lab_chemical_properties", column: "phosphorus_mehlich_3", methodColumn: "phosphorus_mehlich_3_method", unit: "mg/kg", method: "Phosphorus extracted by the Mehlich-3 solution", dataKind: "observed" }] },
  phosphorus_olsen: { unit: "mg/kg", columns: [{ table: "lab_chemical_properties", column: "phosphorus_olsen", methodColumn: "phosphorus_olsen_method", unit: "mg/kg", method: "Phosphorus extracted by 0.5 M sodium bicarbonate at pH 8.5 (Olsen)", dataKind: "observed" }] },
  ec: { unit: "dS/m", columns: [{ table: "lab_chemical_properties", column: "electrical_conductivity_satx", methodColumn: "electrical_cond_satx_method", unit: "dS/m", method: "Electrical conductivity of the saturated-paste extract (ECe)", dataKind: "observed" }] },
};

/** The column table in the form every provider shares: one row per property and answering column. */
export const KSSL_PROPERTY_COLUMNS: readonly PropertyColumn[] = Object.entries(KSSL_PROPERTIES).flatMap(([property, mapping]) =>
  mapping.columns.map((c) => ({ property, table: c.table, column: c.column, unit: mapping.unit, meaning: c.method, methodColumn: c.methodColumn })),
);

/** Read for the raw answer though no property is served from it (total carbon is not organic carbon). */
const TOTAL_CARBON: PropertyColumn = {
  property: "",
  table: "lab_chemical_properties",
  column: "total_carbon_ncs",
  unit: "% (by weight)",
  meaning: "total carbon, dry combustion, % by weight",
  methodColumn: "total_carbon_ncs_method",
};

/** Lab result columns read (each once), then their method-code columns. */
const RESULT_COLUMNS = [...new Map([...KSSL_PROPERTY_COLUMNS, TOTAL_CARBON].map((c) => [c.column, c])).values()];
const METHOD_COLUMNS = [...new Map(RESULT_COLUMNS.flatMap((c) => (c.methodColumn ? [[c.methodColumn, c] as const] : []))).entries()];

export const LAB_TABLES = { p: "lab_combine_nasis_ncss", ly: "lab_layer", ph: "lab_physical_properties", ch: "lab_chemical_properties" } as const;
export type LabAlias = keyof typeof LAB_TABLES;

export interface LabAnswerColumn {
  column: string;
  alias: LabAlias;
  meaning: string;
  /** SDA's expression where it is not `alias.column`. */
  sdaSql?: string;
}

const alias = (table: string): LabAlias => (table === "lab_physical_properties" ? "ph" : "ch");

const PEDON_IDENTITY: readonly LabAnswerColumn[] = [
  { column: "pedon_key", alias: "p", meaning: "SDA: integer key of the pedon in the Lab Data Mart; snapshot: the pedlabsampnum (no numeric key in the export)" },
  { column: "pedlabsampnum", alias: "p", meaning: "KSSL pedon lab sample number, e.g. 02N0245" },
  { column: "upedonid", alias: "p", meaning: "the pedon id its describer gave, e.g. S01KS-177-001" },
  { column: "samp_name", alias: "p", meaning: "name the pedon was sampled as" },
];
const COORDINATES: readonly LabAnswerColumn[] = [
  { column: "latitude_decimal_degrees", alias: "p", meaning: "site latitude, decimal degrees" },
  { column: "longitude_decimal_degrees", alias: "p", meaning: "site longitude, decimal degrees" },
];

/** Columns of the bbox answer: one row per pedon with coordinates, ordered by pedon key. */
export const BBOX_COLUMNS: readonly LabAnswerColumn[] = [
  ...PEDON_IDENTITY,
  { column: "corr_name", alias: "p", meaning: "correlated series name, when known" },
  // Compared with the linked series description's class on the list too (docs/decisions.md#series-classification).
  { column: "samp_taxgrtgroup", alias: "p", meaning: "Soil Taxonomy great group the pedon was classified in when sampled, lower case" },
  { column: "site_obsdate", alias: "p", meaning: "site observation date, when known" },
  ...COORDINATES,
  {
    column: "layer_count",
    alias: "ly",
    meaning: "number of lab_layer rows of the pedon",
    sdaSql: "(SELECT COUNT(*) FROM lab_layer AS ly WHERE ly.pedon_key = p.pedon_key)",
  },
];

/** Columns of the pedon answer: one row per layer (lab_layer LEFT JOIN physical, chemical; both 1:1 with the layer). */
export const PEDON_COLUMNS: readonly LabAnswerColumn[] = [
  ...PEDON_IDENTITY,
  // Compared with the linked series description's class (docs/decisions.md#series-classification).
  { column: "samp_taxgrtgroup", alias: "p", meaning: "Soil Taxonomy great group the pedon was classified in when sampled, lower case, e.g. argiudolls" },
  ...COORDINATES,
  { column: "layer_key", alias: "ly", meaning: "SDA: integer key of the layer; snapshot: the labsampnum" },
  { column: "labsampnum", alias: "ly", meaning: "lab sample number of the layer, e.g. 02N01100" },
  { column: "layer_type", alias: "ly", meaning: "horizon, layer, reporting layer" },
  { column: "hzn_top", alias: "ly", meaning: "layer top depth, cm" },
  { column: "hzn_bot", alias: "ly", meaning: "layer bottom depth, cm" },
  { column: "hzn_desgn", alias: "ly", meaning: "horizon designation" },
  {
    column: "prep_code",
    alias: "ch",
    sdaSql: "COALESCE(ch.prep_code, ph.prep_code)",
    meaning: "the preparation label of the layer's results ('S': <2 mm air-dry sieved); one label per layer though results may come from several preparations (docs/decisions.md#prep-code)",
  },
  ...RESULT_COLUMNS.map((c) => ({ column: c.column, alias: alias(c.table), meaning: c.meaning })),
  ...METHOD_COLUMNS.map(([column, c]) => ({ column, alias: alias(c.table), meaning: `KSSL method code of ${c.column}` })),
];

export const LAB_BBOX_COLUMNS: readonly string[] = BBOX_COLUMNS.map((c) => c.column);
export const LAB_PEDON_COLUMNS: readonly string[] = PEDON_COLUMNS.map((c) => c.column);

