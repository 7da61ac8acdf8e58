/**
 * The T-SQL Loam sends to USDA Soil Data Access, one named function per logical query.
 *
 * Each template is fixed text; user input enters only as a number that passed `sqlNumber` (finite,
 * in range, printed as a plain decimal) or as a pedlabsampnum that matched PEDLABSAMPNUM_PATTERN.
 * The SELECT lists return exactly the columns of `../queries.ts`, in that order, so the shared
 * normalizer reads SDA and snapshot answers alike.
 */
import { ValidationError } from "../../errors";
import {
  CHORIZON_PROPERTY_COLUMNS,
  PEDLABSAMPNUM_PATTERN,
  type LogicalQuery,
  type PedonKey,
} from "../queries";

/** SDA caps a lab pedon at this many layers; real pedons have a few dozen at most. */
export const LAB_PEDON_MAX_LAYERS = 1000;
/** Largest page the lab bbox query may ask for (the API allows 500). */
export const LAB_BBOX_MAX_LIMIT = 10_000;

/**
 * A finite number in [min, max] as a plain T-SQL decimal literal: only digits, one optional leading
 * '-' and one optional '.'. `String()` gives the shortest text that reads back as the same double;
 * its exponent form (below 1e-6) is expanded because neither T-SQL nor WKT should see an 'e'.
 */
export function sqlNumber(value: number, what: string, min: number, max: number): string {
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max) {
    throw new ValidationError(`${what} must be a finite number from ${min} to ${max}.`);
  }
  const text = String(value);
  const exponent = /^(-?)(\d)(?:\.(\d+))?e-(\d+)$/.exec(text);
  const plain = exponent
    ? `${exponent[1]}0.${"0".repeat(Number(exponent[4]) - 1)}${exponent[2]}${exponent[3] ?? ""}`
    : text;
  if (!/^-?\d+(\.\d+)?$/.test(plain)) throw new ValidationError(`${what} cannot be written as a plain decimal.`);
  return plain;
}

function sqlInteger(value: number, what: string, min: number, max: number): string {
  if (!Number.isInteger(value)) throw new ValidationError(`${what} must be a whole number from ${min} to ${max}.`);
  return sqlNumber(value, what, min, max);
}

/**
 * SSURGO map units, components and horizons under one WGS84 point: one row per
 * map unit x component x horizon, components without horizons (and map units without
 * components) kept by the LEFT JOINs with null keys.
 */
export function ssurgoPointSql(latitude: number, longitude: number): string {
  const lat = sqlNumber(latitude, "latitude", -90, 90);
  const lon = sqlNumber(longitude, "longitude", -180, 180);
  // Every vocabulary property comes as low / representative / high typical value of the horizon.
  const properties = CHORIZON_PROPERTY_COLUMNS.map((c) => `  ch.${c}_l, ch.${c}_r, ch.${c}_h`).join(",\n");
  // WKT is lon-lat order. STATSGO2 (areasymbol 'US') overlaps every SSURGO area at 1:250,000
  // and would add a second, coarser map unit at each point, so it is excluded.
  return `SELECT
  l.areasymbol,           -- survey area symbol, e.g. IA073
  l.areaname,             -- survey area name
  sc.saverest,            -- survey area version date (cited)
  sc.saversion,           -- survey area version number
  l.lkey,                 -- legend key
  mu.mukey,               -- map unit key
  mu.musym,               -- map unit symbol on the survey map
  mu.muname,              -- map unit name
  c.cokey,                -- component key; null when the map unit has no component
  c.compname,             -- component (series or miscellaneous area) name
  c.comppct_r,            -- share of the map unit, percent, representative value
  c.majcompflag,          -- 'Yes' or 'No ' (char(3)): major component
  c.compkind,             -- series, taxadjunct, miscellaneous area, ...
  ch.chkey,               -- horizon key; null when the component has no horizon
  ch.hzname,              -- horizon designation, e.g. Ap
  ch.hzdept_r,            -- horizon top depth, cm
  ch.hzdepb_r,            -- horizon bottom depth, cm
  -- pH 1:1 water; organic matter %; sand, silt, clay % of <2 mm; bulk density 1/3 bar g/cm3;
  -- CEC NH4OAc pH 7 meq/100 g; EC saturated paste dS/m
${properties}
FROM legend AS l
INNER JOIN mapunit AS mu ON mu.lkey = l.lkey
LEFT JOIN sacatalog AS sc ON sc.areasymbol = l.areasymbol
LEFT JOIN component AS c ON c.mukey = mu.mukey
LEFT JOIN chorizon AS ch ON ch.cokey = c.cokey
WHERE mu.mukey IN (SELECT mukey FROM SDA_Get_Mukey_from_intersection_with_WktWgs84('POINT(${lon} ${lat})'))
  AND l.areasymbol <> 'US'
ORDER BY mu.mukey, c.comppct_r DESC, c.cokey, ch.hzdept_r`;
}

/**
 * Lab pedons with site coordinates inside a bbox (edges inclusive), ordered by pedon_key.
 * One row more than the page is asked for, so the caller can tell that more pedons exist.
 */
export function labBboxSql(bbox: readonly [number, number, number, number], limit: number): string {
  const [minLon, minLat, maxLon, maxLat] = bbox;
  const west = sqlNumber(minLon, "bbox min_lon", -180, 180);
  const south = sqlNumber(minLat, "bbox min_lat", -90, 90);
  const east = sqlNumber(maxLon, "bbox max_lon", -180, 180);
  const north = sqlNumber(maxLat, "bbox max_lat", -90, 90);
  if (minLon > maxLon || minLat > maxLat) throw new ValidationError("bbox minimum must not exceed its maximum.");
  sqlInteger(limit, "limit", 1, LAB_BBOX_MAX_LIMIT);
  const top = sqlInteger(limit + 1, "limit + 1", 2, LAB_BBOX_MAX_LIMIT + 1);
  return `SELECT TOP (${top})
  p.pedon_key,                  -- integer key of the pedon in the Lab Data Mart
  p.pedlabsampnum,              -- KSSL pedon lab sample number, e.g. 02N0245
  p.upedonid,                   -- user pedon id, e.g. S01KS-177-001
  p.samp_name,                  -- name the pedon was sampled as
  p.corr_name,                  -- correlated series name
  p.site_obsdate,               -- site observation date
  p.latitude_decimal_degrees,   -- site latitude, decimal degrees
  p.longitude_decimal_degrees,  -- site longitude, decimal degrees
  (SELECT COUNT(*) FROM lab_layer AS ly WHERE ly.pedon_key = p.pedon_key) AS layer_count
FROM lab_combine_nasis_ncss AS p
WHERE p.latitude_decimal_degrees IS NOT NULL
  AND p.longitude_decimal_degrees IS NOT NULL
  AND p.longitude_decimal_degrees BETWEEN ${west} AND ${east}
  AND p.latitude_decimal_degrees BETWEEN ${south} AND ${north}
ORDER BY p.pedon_key`;
}

/** The WHERE clause naming one pedon by either key form. */
function pedonFilter(pedonKey: PedonKey): string {
  if (pedonKey.form === "pedon_key") {
    return `p.pedon_key = ${sqlInteger(pedonKey.value, "pedon_key", 1, 2_147_483_647)}`;
  }
  if (typeof pedonKey.value !== "string" || !PEDLABSAMPNUM_PATTERN.test(pedonKey.value)) {
    throw new ValidationError("pedlabsampnum must look like 02N0245 (two digits, a letter, four digits or letters).");
  }
  return `p.pedlabsampnum = '${pedonKey.value}'`;
}

/**
 * One lab pedon with its layers and their physical and chemical results, one row per layer.
 * The prep_code filters sit in the join conditions, as soilDB's fetchLDM has them: 'S' is the
 * <2 mm sieved sample the standard results refer to, and a layer without results stays a row.
 */
export function labPedonSql(pedonKey: PedonKey): string {
  const filter = pedonFilter(pedonKey);
  return `SELECT TOP (${LAB_PEDON_MAX_LAYERS})
  p.pedon_key,                        -- integer key of the pedon
  p.pedlabsampnum,                    -- KSSL pedon lab sample number
  p.upedonid,                         -- user pedon id
  p.samp_name,                        -- name the pedon was sampled as
  p.latitude_decimal_degrees,         -- site latitude, decimal degrees
  p.longitude_decimal_degrees,        -- site longitude, decimal degrees
  ly.layer_key,                       -- integer key of the layer
  ly.labsampnum,                      -- lab sample number of the layer, e.g. 02N01100
  ly.layer_type,                      -- horizon, layer, reporting layer
  ly.hzn_top,                         -- layer top depth, cm
  ly.hzn_bot,                         -- layer bottom depth, cm
  ly.hzn_desgn,                       -- horizon designation
  ch.ph_h2o,                          -- pH 1:1 water
  ch.organic_carbon_walkley_black,    -- organic carbon, Walkley-Black, % by weight
  ch.estimated_organic_carbon,        -- total C minus carbonate C, % by weight (no method column)
  ch.total_carbon_ncs,                -- total carbon, dry combustion, % by weight
  ph.sand_total,                      -- total sand, % of <2 mm
  ph.silt_total,                      -- total silt, % of <2 mm
  ph.clay_total,                      -- total clay, % of <2 mm
  ph.bulk_density_third_bar,          -- bulk density at 1/3 bar, g/cm3
  ch.cec_nh4_ph_7,                    -- CEC by NH4OAc at pH 7, cmol(+)/kg
  ch.total_nitrogen_ncs,              -- total nitrogen, dry combustion, % by weight
  ch.electrical_conductivity_satx,    -- EC of the saturated paste extract, dS/m
  ch.ph_h2o_method,                   -- KSSL method codes of the results above
  ch.oc_walkley_black_method,
  ch.total_carbon_ncs_method,
  ph.particle_size_method,
  ph.bulk_density_third_bar_method,
  ch.cec_nh4_ph_7_method,
  ch.total_nitrogen_ncs_method,
  ch.electrical_cond_satx_method
FROM lab_combine_nasis_ncss AS p
-- LEFT: a pedon without lab layers is still found (one row, null layer columns), as in the snapshot.
LEFT JOIN lab_layer AS ly ON ly.pedon_key = p.pedon_key
LEFT JOIN lab_physical_properties AS ph
  ON ph.labsampnum = ly.labsampnum AND IsNull(ph.prep_code, '') IN ('S', '')
LEFT JOIN lab_chemical_properties AS ch
  ON ch.labsampnum = ly.labsampnum AND IsNull(ch.prep_code, '') IN ('S', '')
WHERE ${filter}
ORDER BY ly.hzn_top, ly.labsampnum`;
}

/** The T-SQL for a logical query. */
export function sqlFor(query: LogicalQuery): string {
  switch (query.kind) {
    case "ssurgo_point":
      return ssurgoPointSql(query.latitude, query.longitude);
    case "lab_bbox":
      return labBboxSql(query.bbox, query.limit);
    case "lab_pedon":
      return labPedonSql(query.pedonKey);
  }
}
