/**
 * What a map-unit summary can be asked for, as a type: one definition per canonical property, naming
 * the upstream level and column that answers it, its unit, and whether it is a number or a class.
 * The definitions themselves belong to the provider that has map units (its `mapUnits.properties`,
 * built from its column table), so a column, a unit or a derivation is stated once.
 *
 * Horizon-level values are aggregated over depth first (per component), then over components;
 * component-level values (slope, drainage class, ...) have no depth. Class properties exist only in
 * summaries: an observation's `value` is a number, so the point query cannot carry them.
 */
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
  /** Upstream table.column the value comes from (representative value). */
  table: "chorizon" | "component" | "chtexturegrp";
  column: string;
  /** Canonical unit; null for classes. */
  unit: string | null;
  /** Unit as the upstream documents the column (the name used in transformations). */
  originalUnit: string | null;
  /** A storage property sums value x overlap thickness over depth instead of averaging it. */
  storage?: { unit: string; formula: string };
  /**
   * A particle-size fraction of the fine earth (sand, silt, clay): in a miscellaneous area, SSURGO fills
   * these with placeholders (zero or null), so a zero there is a placeholder, not an estimate
   * (docs/decisions.md#miscellaneous-areas).
   */
  fraction?: boolean;
  /** Set when the value is derived from the column, not read as is. */
  derived?: { transformation: SummaryTransformation; factor: number; warning: string };
}
