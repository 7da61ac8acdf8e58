/**
 * SSURGO as Loam reads it: the column table (docs/decisions.md#column-tables). Which chorizon column
 * answers each canonical property, in what unit, with what meaning; and every other column of the
 * point answer with the table it comes from. The SDA SELECT, the snapshot SELECT, the normalizer's
 * mapping and the catalog's supported_properties are all generated from these two tables.
 * Adding a property is one row here.
 */
import { OM_OC_FACTOR } from "../../catalog/properties";
import type { ColumnKind } from "../../upstream/sda/rows";
import type { PropertyColumn } from "../provider";

const RV_METHOD =
  "SSURGO representative value (_r) of the component horizon: a soil scientist's estimate for the map-unit component, drawn from laboratory data, field observation and correlation, not a measurement at the point";

export interface SsurgoProperty extends PropertyColumn {
  table: "chorizon";
  /** chorizon column stem; the value is `<stem>_r`, its range `<stem>_l` / `<stem>_h`. */
  column: string;
  /** Unit as SSURGO documents the column. */
  originalUnit: string;
  method: string;
  /** A particle-size fraction (sand, silt, clay): SSURGO's placeholder columns in miscellaneous areas (docs/decisions.md#miscellaneous-areas). */
  fraction?: boolean;
  /** Set for a property SSURGO does not report, derived from another column. */
  derivedFrom?: { property: string; formula: string; operation: string; factor: number; warning: string };
}

const row = (property: string, column: string, originalUnit: string, unit: string, meaning: string, extra: Partial<SsurgoProperty> = {}): SsurgoProperty => ({
  property,
  table: "chorizon",
  column,
  unit,
  originalUnit,
  meaning,
  methodColumn: null,
  method: `${RV_METHOD}; ${meaning}`,
  ...extra,
});

/** Horizon properties of the vocabulary; SSURGO has no method-code column (methodColumn null). */
export const SSURGO_PROPERTIES: readonly SsurgoProperty[] = [
  row("ph", "ph1to1h2o", "pH", "pH", "pH in 1:1 soil:water suspension"),
  row("organic_matter", "om", "percent (by weight)", "% (by weight)", "organic matter of the <2 mm fraction"),
  row("organic_carbon", "om", "percent (by weight)", "% (by weight)", "organic carbon derived from organic matter", {
    method: `Derived from the SSURGO organic matter representative value (om_r) by the conventional factor ${OM_OC_FACTOR}`,
    derivedFrom: {
      property: "organic_matter",
      operation: "derive_organic_carbon_from_organic_matter",
      formula: `organic_carbon = organic_matter / ${OM_OC_FACTOR}`,
      factor: OM_OC_FACTOR,
      warning: `Derived value, not a measurement: organic carbon = organic matter / ${OM_OC_FACTOR} (the conventional 'Van Bemmelen' factor). The true ratio varies by soil (Pribyl 2010: median near 1.9, range about 1.4 to 2.5), so this value may be off by a third or more.`,
    },
  }),
  row("sand", "sandtotal", "percent of the <2 mm fraction", "%", "total sand (0.05–2 mm), USDA particle-size classes", { fraction: true }),
  row("silt", "silttotal", "percent of the <2 mm fraction", "%", "total silt (0.002–0.05 mm)", { fraction: true }),
  row("clay", "claytotal", "percent of the <2 mm fraction", "%", "total clay (<0.002 mm)", { fraction: true }),
  row("bulk_density", "dbthirdbar", "g/cc", "g/cm3", "bulk density of the <2 mm fraction at 1/3 bar water retention"),
  // meq/100 g equals cmol(+)/kg numerically (docs/decisions.md#units): no transformation is recorded.
  row("cec", "cec7", "milliequivalents per 100 grams", "cmol(+)/kg", "cation-exchange capacity by NH4OAc at pH 7"),
  row("ec", "ec", "decisiemens per meter", "dS/m", "electrical conductivity of the saturation extract"),
  row("available_water_capacity", "awc", "centimeters per centimeter", "cm/cm", "available water capacity: water held between field capacity and the wilting point, per cm of soil"),
  // SSURGO ksat is in micrometers per second, the canonical unit: no transformation.
  row("ksat", "ksat", "micrometers per second", "µm/s", "saturated hydraulic conductivity"),
];

export const SSURGO_PROPERTY_BY_ID: ReadonlyMap<string, SsurgoProperty> = new Map(SSURGO_PROPERTIES.map((p) => [p.property, p]));

/** chorizon columns read for the vocabulary, each as `_l`, `_r`, `_h`. */
export const CHORIZON_PROPERTY_COLUMNS: readonly string[] = [...new Set(SSURGO_PROPERTIES.map((p) => p.column))];

/** Tables of the point query by the alias both SELECTs give them. */
export const POINT_TABLES = { l: "legend", sc: "sacatalog", mu: "mapunit", c: "component", ch: "chorizon" } as const;
type Alias = keyof typeof POINT_TABLES;

export interface PointColumn {
  column: string;
  alias: Alias;
  meaning: string;
  /** What the decoded answer holds (docs/decisions.md#decode-once); keys stay text. */
  kind: ColumnKind;
}

/** The point answer's identifying columns: one row per map unit x component x horizon (LEFT JOINs). */
const IDENTITY_COLUMNS: readonly PointColumn[] = [
  { column: "areasymbol", alias: "l", meaning: "survey area symbol, e.g. IA073", kind: "text" },
  { column: "areaname", alias: "l", meaning: "survey area name", kind: "text" },
  { column: "saverest", alias: "sc", meaning: "survey area version date (cited)", kind: "date" },
  { column: "saversion", alias: "sc", meaning: "survey area version number", kind: "text" },
  { column: "lkey", alias: "l", meaning: "legend key", kind: "text" },
  { column: "mukey", alias: "mu", meaning: "map unit key", kind: "text" },
  { column: "musym", alias: "mu", meaning: "map unit symbol on the survey map", kind: "text" },
  { column: "muname", alias: "mu", meaning: "map unit name", kind: "text" },
  { column: "cokey", alias: "c", meaning: "component key; null when the map unit has no component", kind: "text" },
  { column: "compname", alias: "c", meaning: "component (series or miscellaneous area) name", kind: "text" },
  { column: "comppct_r", alias: "c", meaning: "share of the map unit, percent, representative value", kind: "number" },
  { column: "majcompflag", alias: "c", meaning: "'Yes' or 'No ' (char(3)): major component", kind: "text" },
  { column: "compkind", alias: "c", meaning: "series, taxadjunct, miscellaneous area, ...", kind: "text" },
  { column: "chkey", alias: "ch", meaning: "horizon key; null when the component has no horizon", kind: "text" },
  { column: "hzname", alias: "ch", meaning: "horizon designation, e.g. Ap", kind: "text" },
  { column: "hzdept_r", alias: "ch", meaning: "horizon top depth, cm", kind: "number" },
  { column: "hzdepb_r", alias: "ch", meaning: "horizon bottom depth, cm", kind: "number" },
];

/** Every column of the point answer, in order: identity, then each property column's low, representative, high value. */
export const POINT_COLUMNS: readonly PointColumn[] = [
  ...IDENTITY_COLUMNS,
  ...CHORIZON_PROPERTY_COLUMNS.flatMap((stem) =>
    (["l", "r", "h"] as const).map((suffix) => ({
      column: `${stem}_${suffix}`,
      alias: "ch" as const,
      kind: "number" as const,
      meaning: `${SSURGO_PROPERTIES.find((p) => p.column === stem)?.meaning ?? stem}: ${{ l: "low", r: "representative", h: "high" }[suffix]} value`,
    })),
  ),
];

export const SSURGO_POINT_COLUMNS: readonly string[] = POINT_COLUMNS.map((c) => c.column);
