/**
 * The logical query of a map-unit summary: one map unit by mukey, with every component (with or
 * without horizons) and every horizon with the summary property columns and its representative
 * texture. One row per map unit x component x horizon; the LEFT JOINs keep a map unit without
 * components and a component without horizons (Urban land, Water) as rows with null keys.
 *
 * The column table below is the single description: the SDA T-SQL and the snapshot SQLite SELECT
 * are generated from it and return the same columns in the same order, so one decoder reads both.
 *
 * Finding the map unit of a point (GET /v1/soil/summary) is the point query's job, not this one's:
 * SDA answers it with `SDA_Get_Mukey_from_intersection_with_WktWgs84('POINT(lon lat)')` (excluding
 * the STATSGO2 legend, areasymbol 'US'), the snapshot with the `mupolygon_rtree` box search plus the
 * even-odd ring test on `mupolygon.rings`. Its mukey is then asked for here.
 */
import { ValidationError } from "../errors";

export interface SummaryColumn {
  /** Column name of the answer (the SSURGO column name). */
  name: string;
  /** Table alias and column in both dialects: l legend, sc sacatalog, mu mapunit, c component, ch chorizon, tg chtexturegrp. */
  source: string;
  /** What the column means and its unit. */
  meaning: string;
}

const col = (source: string, meaning: string): SummaryColumn => ({ name: source.split(".")[1]!, source, meaning });

/** Horizon property columns, each as low / representative / high value (the summaries read _r). */
const HORIZON_PROPERTY_STEMS: ReadonlyArray<[stem: string, meaning: string]> = [
  ["ph1to1h2o", "pH, 1:1 soil:water"],
  ["om", "organic matter, % by weight"],
  ["sandtotal", "total sand, % of the <2 mm fraction"],
  ["silttotal", "total silt, % of the <2 mm fraction"],
  ["claytotal", "total clay, % of the <2 mm fraction"],
  ["dbthirdbar", "bulk density at 1/3 bar, g/cm3"],
  ["cec7", "CEC by NH4OAc at pH 7, meq/100 g (= cmol(+)/kg)"],
  ["ec", "electrical conductivity of the saturation extract, dS/m"],
  ["awc", "available water capacity, cm/cm"],
  ["ksat", "saturated hydraulic conductivity, micrometers per second"],
];

export const MAP_UNIT_SUMMARY_COLUMNS: readonly SummaryColumn[] = [
  col("l.areasymbol", "survey area symbol, e.g. IA073"),
  col("l.areaname", "survey area name"),
  col("sc.saverest", "survey area version date (citation)"),
  col("sc.saversion", "survey area version number (citation)"),
  col("l.lkey", "legend key"),
  col("mu.mukey", "map unit key"),
  col("mu.musym", "map unit symbol on the survey map"),
  col("mu.muname", "map unit name"),
  col("c.cokey", "component key; null when the map unit has no component"),
  col("c.compname", "component name (series or miscellaneous area)"),
  col("c.comppct_r", "component share of the map unit, percent (representative value)"),
  col("c.majcompflag", "'Yes' or 'No ' (char(3)): major component"),
  col("c.compkind", "Series, Taxadjunct, Miscellaneous area, ..."),
  col("c.taxclname", "Soil Taxonomy family name"),
  col("c.slope_l", "slope gradient, %, low"),
  col("c.slope_r", "slope gradient, %, representative"),
  col("c.slope_h", "slope gradient, %, high"),
  col("c.drainagecl", "natural drainage class"),
  col("c.hydgrp", "hydrologic soil group (A, B, C, D, A/D, B/D, C/D)"),
  col("ch.chkey", "horizon key; null when the component has no horizon"),
  col("ch.hzname", "horizon designation, e.g. Ap"),
  col("ch.hzdept_r", "horizon top depth, cm"),
  col("ch.hzdepb_r", "horizon bottom depth, cm"),
  ...HORIZON_PROPERTY_STEMS.flatMap(([stem, meaning]) =>
    (["l", "r", "h"] as const).map((s) => col(`ch.${stem}_${s}`, `${meaning}, ${{ l: "low", r: "representative", h: "high" }[s]}`)),
  ),
  col("tg.chtgkey", "key of the representative texture group (rvindicator 'Yes'); null when there is none"),
  col("tg.texture", "texture of the representative texture group, e.g. L, SIL, GR-L"),
];

export const MAP_UNIT_SUMMARY_COLUMN_NAMES: readonly string[] = MAP_UNIT_SUMMARY_COLUMNS.map((c) => c.name);

/** SSURGO keys are digit strings; SDA's mapunit.mukey is an int, so anything longer is not a key. */
export const MAP_UNIT_KEY_PATTERN = /^[1-9][0-9]{0,9}$/;

/** The mukey as it may enter SQL: digits only, or a ValidationError (422). */
export function checkMapUnitKey(mukey: string): string {
  if (typeof mukey !== "string" || !MAP_UNIT_KEY_PATTERN.test(mukey) || Number(mukey) > 2_147_483_647) {
    throw new ValidationError("map_unit_key must be a SSURGO map unit key: digits only, such as 2765528.");
  }
  return mukey;
}

const SELECT_LIST = MAP_UNIT_SUMMARY_COLUMNS.map((c) => `  ${c.source}`).join(",\n");

/**
 * The joins and order, the same in both dialects. The representative texture group is joined on
 * rvindicator 'Yes' (a Boolean stored as 'Yes'/'No '), at most one per horizon in SSURGO.
 */
function fromClause(mukeyPredicate: string): string {
  return `FROM mapunit AS mu
INNER JOIN legend AS l ON l.lkey = mu.lkey
LEFT JOIN sacatalog AS sc ON sc.areasymbol = l.areasymbol
LEFT JOIN component AS c ON c.mukey = mu.mukey
LEFT JOIN chorizon AS ch ON ch.cokey = c.cokey
LEFT JOIN chtexturegrp AS tg ON tg.chkey = ch.chkey AND tg.rvindicator = 'Yes'
WHERE ${mukeyPredicate}
ORDER BY c.comppct_r DESC, c.cokey, ch.hzdept_r, ch.chkey`;
}

/** T-SQL for Soil Data Access. No SQL comments: the column meanings live in MAP_UNIT_SUMMARY_COLUMNS. */
export function mapUnitSummarySql(mukey: string): string {
  return `SELECT\n${SELECT_LIST}\n${fromClause(`mu.mukey = ${checkMapUnitKey(mukey)}`)}`;
}

/**
 * The snapshot's SQLite SELECT (keys are TEXT there): bind the checked mukey as parameter ?1.
 * SQLite sorts NULL first in ascending order and SQL Server does too, so both orders agree.
 */
export const MAP_UNIT_SUMMARY_SNAPSHOT_SQL = `SELECT\n${SELECT_LIST}\n${fromClause("mu.mukey = ?1")}`;
