/**
 * How precise a value Loam computes may claim to be (docs/decisions.md#precision). Values Loam
 * computes (weighted averages, sums over depth, unit and OM/OC conversions) are rounded to
 * DERIVED_SIGNIFICANT_DIGITS significant digits; values read from a source are never rounded.
 *
 * Why four: SSURGO's representative values are published with at most four significant digits
 * (mstabcol precision: claytotal_r 37.5, ksat_r 91.74, awc_r 0.05), and NRCS's own aggregates print
 * available water storage with two decimals (muaggatt aws0150wta 27.54: four digits for 10–99 cm), so a
 * fifth digit would be noise and fewer would lose what NRCS publishes.
 */
export const DERIVED_SIGNIFICANT_DIGITS = 4;

/** The rule as each transformation's text states it. */
export const PRECISION_RULE = `result rounded to ${DERIVED_SIGNIFICANT_DIGITS} significant digits`;

/**
 * A computed value at the documented precision, rounded half away from zero on its decimal digits, as
 * NRCS rounds (muaggatt 18.845 → 18.85). Binary noise is removed first: 18.845 is stored as
 * 18.84499999…, which `toPrecision` alone would round down.
 */
export function roundDerived(value: number): number {
  if (!Number.isFinite(value) || value === 0) return value;
  const magnitude = Math.abs(value);
  const decimals = DERIVED_SIGNIFICANT_DIGITS - 1 - Math.floor(Math.log10(magnitude));
  const scaled = Number((decimals >= 0 ? magnitude * 10 ** decimals : magnitude / 10 ** -decimals).toPrecision(12));
  const rounded = Math.round(scaled);
  const back = decimals >= 0 ? rounded / 10 ** decimals : rounded * 10 ** -decimals;
  // A value such as 9.9996 rounds up to 10.00: still four significant digits, one more integer digit.
  return Number((Math.sign(value) * back).toPrecision(DERIVED_SIGNIFICANT_DIGITS));
}

/** A computed value or null at the documented precision. */
export const roundDerivedOrNull = (value: number | null): number | null => (value === null ? null : roundDerived(value));

/** How many decimals a value read from a source is written with (its shortest form: 8.9 → 1, 15 → 0), at most 6. */
export function decimalsOf(value: number): number {
  if (!Number.isFinite(value)) return 0;
  const text = String(Math.abs(value));
  if (text.includes("e")) return 6;
  return Math.min(6, (text.split(".")[1] ?? "").length);
}

/**
 * A mean of readings at the readings' own resolution (docs/decisions.md#precision): a mean of 0.1 %
 * readings is 9.0, not 9.013, since no more is known of each hour than its tenth. Half away from zero.
 */
export function roundToDecimals(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return value;
  const scaled = Number((Math.abs(value) * 10 ** decimals).toPrecision(12));
  return (Math.sign(value) * Math.round(scaled)) / 10 ** decimals || 0;
}
