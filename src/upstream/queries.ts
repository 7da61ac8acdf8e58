/**
 * The logical queries Loam asks an upstream source, and the columns each answer carries.
 *
 * Both sources (SDA T-SQL in `sda/queries.ts`, the snapshot's SQLite in `snapshot/`) must answer
 * each logical query with exactly these columns, in this order, so one normalizer serves both.
 * User input enters a query only as validated numbers or as a pedon key matched by a fixed pattern.
 */

/** SSURGO chorizon properties served by the vocabulary; each comes as `_l`, `_r`, `_h`. */
export const CHORIZON_PROPERTY_COLUMNS = [
  "ph1to1h2o", // pH 1:1 water
  "om", // organic matter, % by weight
  "sandtotal", // total sand, % of <2 mm
  "silttotal", // total silt, % of <2 mm
  "claytotal", // total clay, % of <2 mm
  "dbthirdbar", // bulk density at 1/3 bar, g/cm3
  "cec7", // CEC by NH4OAc at pH 7, meq/100 g
  "ec", // electrical conductivity (saturated paste), dS/m
] as const;

/** Columns of the SSURGO point answer: one row per map unit x component x horizon (LEFT JOINs). */
export const SSURGO_POINT_COLUMNS = [
  "areasymbol", // legend.areasymbol, e.g. IA073
  "areaname", // legend.areaname
  "saverest", // sacatalog.saverest: survey area version date (citation)
  "saversion", // sacatalog.saversion
  "lkey",
  "mukey",
  "musym",
  "muname",
  "cokey", // null when the map unit has no component
  "compname",
  "comppct_r", // component percentage of the map unit, representative value
  "majcompflag", // 'Yes' or 'No ' (char(3))
  "compkind", // series, taxadjunct, miscellaneous area, ...
  "chkey", // null when the component has no horizon
  "hzname",
  "hzdept_r", // horizon top depth, cm
  "hzdepb_r", // horizon bottom depth, cm
  ...CHORIZON_PROPERTY_COLUMNS.flatMap((c) => [`${c}_l`, `${c}_r`, `${c}_h`]),
] as const;

/** Columns of the lab bounding-box answer: one row per pedon with coordinates, ordered by pedon_key. */
export const LAB_BBOX_COLUMNS = [
  "pedon_key", // SDA: integer pedon_key; snapshot: the pedlabsampnum (no numeric key in the export)
  "pedlabsampnum", // KSSL pedon lab sample number, e.g. 02N0245
  "upedonid", // user pedon id, e.g. S01KS-177-001
  "samp_name", // the name the pedon was sampled as
  "corr_name", // correlated series name, when known
  "site_obsdate", // site observation date, when known
  "latitude_decimal_degrees",
  "longitude_decimal_degrees",
  "layer_count", // number of lab_layer rows of the pedon
] as const;

/** Lab property columns of the pedon detail answer with their method-code column (null where LDM has none). */
export const LAB_PROPERTY_COLUMNS = [
  { column: "ph_h2o", method: "ph_h2o_method" },
  { column: "organic_carbon_walkley_black", method: "oc_walkley_black_method" },
  { column: "estimated_organic_carbon", method: null },
  { column: "total_carbon_ncs", method: "total_carbon_ncs_method" },
  { column: "sand_total", method: "particle_size_method" },
  { column: "silt_total", method: "particle_size_method" },
  { column: "clay_total", method: "particle_size_method" },
  { column: "bulk_density_third_bar", method: "bulk_density_third_bar_method" },
  { column: "cec_nh4_ph_7", method: "cec_nh4_ph_7_method" },
  { column: "total_nitrogen_ncs", method: "total_nitrogen_ncs_method" },
  { column: "electrical_conductivity_satx", method: "electrical_cond_satx_method" },
] as const;

const LAB_METHOD_COLUMNS = [...new Set(LAB_PROPERTY_COLUMNS.flatMap((p) => (p.method ? [p.method] : [])))];

/** Columns of the lab pedon detail answer: one row per layer (lab_layer LEFT JOIN physical, chemical). */
export const LAB_PEDON_COLUMNS = [
  "pedon_key",
  "pedlabsampnum",
  "upedonid",
  "samp_name",
  "latitude_decimal_degrees",
  "longitude_decimal_degrees",
  "layer_key", // SDA: integer layer_key; snapshot: the labsampnum
  "labsampnum", // lab sample number of the layer, e.g. 02N01100
  "layer_type",
  "hzn_top", // cm
  "hzn_bot", // cm
  "hzn_desgn",
  ...LAB_PROPERTY_COLUMNS.map((p) => p.column),
  ...LAB_METHOD_COLUMNS,
] as const;

export type LogicalQuery =
  | { kind: "ssurgo_point"; latitude: number; longitude: number }
  | { kind: "lab_bbox"; bbox: [number, number, number, number]; limit: number }
  | { kind: "lab_pedon"; pedonKey: PedonKey };

/** A pedon key in one of its two forms (DESIGN §2): SDA's integer pedon_key or KSSL's pedlabsampnum. */
export type PedonKey = { form: "pedon_key"; value: number } | { form: "pedlabsampnum"; value: string };

/** `pedlabsampnum` as KSSL writes it: two-digit year, a letter, four digits or letters (e.g. 02N0245, 12N7611). */
export const PEDLABSAMPNUM_PATTERN = /^[0-9]{2}[A-Z][0-9A-Z]{4}$/;

/** Parse a pedon key path segment; null when it is neither form. */
export function parsePedonKey(raw: string): PedonKey | null {
  if (/^[1-9][0-9]{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647) return { form: "pedon_key", value: Number(raw) };
  const upper = raw.toUpperCase();
  if (PEDLABSAMPNUM_PATTERN.test(upper)) return { form: "pedlabsampnum", value: upper };
  return null;
}

/** A stable text for a logical query: the cache key (with the provider) and the ETag seed. */
export function canonicalQuery(query: LogicalQuery): string {
  switch (query.kind) {
    case "ssurgo_point":
      return `ssurgo_point:${query.longitude},${query.latitude}`;
    case "lab_bbox":
      return `lab_bbox:${query.bbox.join(",")}:${query.limit}`;
    case "lab_pedon":
      return `lab_pedon:${query.pedonKey.form}:${query.pedonKey.value}`;
  }
}
