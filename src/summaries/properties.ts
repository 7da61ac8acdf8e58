/**
 * What a map-unit summary can be asked for: one row per canonical property, naming the SSURGO
 * level and column that answers it, its unit, and whether it is a number or a class.
 *
 * Horizon-level values are aggregated over depth first (per component), then over components;
 * component-level values (slope, drainage class, ...) have no depth. Class properties exist only in
 * summaries: an observation's `value` is a number, so the point query cannot carry them.
 */
import { OM_OC_FACTOR } from "../catalog/properties";

export type SummaryLevel = "horizon" | "component";
export type SummaryKind = "numeric" | "class";

export interface SummaryTransformation {
  operation: string;
  from_unit: string;
  to_unit: string;
  formula: string;
}

export interface SummaryProperty {
  id: string;
  name: string;
  level: SummaryLevel;
  kind: SummaryKind;
  /** SSURGO table.column the value comes from (representative value). */
  table: "chorizon" | "component" | "chtexturegrp";
  column: string;
  /** Canonical unit; null for classes. */
  unit: string | null;
  /** Unit as SSURGO documents the column (the name used in transformations). */
  originalUnit: string | null;
  /** A storage property sums value x overlap thickness over depth instead of averaging it. */
  storage?: { unit: string; formula: string };
  /** Set when the value is derived from the column, not read as is. */
  derived?: { transformation: SummaryTransformation; factor: number; warning: string };
}

const horizon = (id: string, name: string, column: string, unit: string, originalUnit: string): SummaryProperty => ({
  id, name, level: "horizon", kind: "numeric", table: "chorizon", column, unit, originalUnit,
});

export const SUMMARY_PROPERTIES: readonly SummaryProperty[] = [
  horizon("ph", "pH (1:1 water)", "ph1to1h2o_r", "pH", "pH"),
  horizon("organic_matter", "Organic matter", "om_r", "% (by weight)", "percent (by weight)"),
  {
    ...horizon("organic_carbon", "Organic carbon", "om_r", "% (by weight)", "percent (by weight)"),
    derived: {
      factor: OM_OC_FACTOR,
      transformation: {
        operation: "derive_organic_carbon_from_organic_matter",
        from_unit: "% (by weight)",
        to_unit: "% (by weight)",
        formula: `organic_carbon = om_r / ${OM_OC_FACTOR}`,
      },
      warning:
        `Derived value, not a measurement: organic carbon = organic matter / ${OM_OC_FACTOR} (the conventional factor). ` +
        "The true ratio varies by soil (Pribyl 2010: median near 1.9, range about 1.4 to 2.5).",
    },
  },
  horizon("sand", "Sand (<2 mm fraction)", "sandtotal_r", "%", "percent of the <2 mm fraction"),
  horizon("silt", "Silt (<2 mm fraction)", "silttotal_r", "%", "percent of the <2 mm fraction"),
  horizon("clay", "Clay (<2 mm fraction)", "claytotal_r", "%", "percent of the <2 mm fraction"),
  horizon("bulk_density", "Bulk density, 1/3 bar", "dbthirdbar_r", "g/cm3", "g/cc"),
  // meq/100 g equals cmol(+)/kg numerically: no transformation is recorded.
  horizon("cec", "CEC, NH4OAc pH 7", "cec7_r", "cmol(+)/kg", "milliequivalents per 100 grams"),
  horizon("ec", "Electrical conductivity, saturated paste", "ec_r", "dS/m", "decisiemens per meter"),
  horizon("available_water_capacity", "Available water capacity", "awc_r", "cm/cm", "centimeters per centimeter"),
  {
    ...horizon("available_water_storage", "Available water storage", "awc_r", "cm", "centimeters per centimeter"),
    // NRCS muaggatt.aws0xxwta: the water a component holds over the interval, summed, not averaged.
    storage: { unit: "cm", formula: "component storage = sum over horizons of awc_r (cm/cm) x overlap thickness (cm)" },
  },
  // SSURGO ksat is already in micrometers per second.
  horizon("ksat", "Saturated hydraulic conductivity", "ksat_r", "µm/s", "micrometers per second"),
  { id: "slope", name: "Slope gradient", level: "component", kind: "numeric", table: "component", column: "slope_r", unit: "%", originalUnit: "percent" },
  { id: "drainage_class", name: "Drainage class", level: "component", kind: "class", table: "component", column: "drainagecl", unit: null, originalUnit: null },
  { id: "hydrologic_group", name: "Hydrologic soil group", level: "component", kind: "class", table: "component", column: "hydgrp", unit: null, originalUnit: null },
  { id: "taxonomic_class", name: "Taxonomic class", level: "component", kind: "class", table: "component", column: "taxclname", unit: null, originalUnit: null },
  // The representative texture group (rvindicator 'Yes') of each horizon; per component the texture
  // covering the greatest thickness of the interval.
  { id: "texture_class", name: "Texture class", level: "horizon", kind: "class", table: "chtexturegrp", column: "texture", unit: null, originalUnit: null },
];

const BY_ID = new Map(SUMMARY_PROPERTIES.map((p) => [p.id, p]));

/** The summary definition of a canonical property id; undefined when summaries cannot answer it. */
export function summaryProperty(id: string): SummaryProperty | undefined {
  return BY_ID.get(id);
}

/** chorizon columns the numeric horizon properties read (each distinct once). */
export const SUMMARY_HORIZON_COLUMNS: readonly string[] = [
  ...new Set(SUMMARY_PROPERTIES.filter((p) => p.table === "chorizon").map((p) => p.column)),
];
