/**
 * Writing T-SQL for USDA Soil Data Access safely: numbers only as plain decimals that passed their
 * range check, and no comments anywhere (docs/decisions.md#sda-sql). The queries themselves live in
 * their providers' folders and are generated from the providers' column tables.
 */
import { ValidationError } from "../../errors";

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

export function sqlInteger(value: number, what: string, min: number, max: number): string {
  if (!Number.isInteger(value)) throw new ValidationError(`${what} must be a whole number from ${min} to ${max}.`);
  return sqlNumber(value, what, min, max);
}

/** A box's edges as T-SQL decimal literals, each checked to lie in WGS84: [west, south, east, north]. */
export function sqlBbox([minLon, minLat, maxLon, maxLat]: readonly [number, number, number, number]): [string, string, string, string] {
  return [sqlNumber(minLon, "bbox min_lon", -180, 180), sqlNumber(minLat, "bbox min_lat", -90, 90), sqlNumber(maxLon, "bbox max_lon", -180, 180), sqlNumber(maxLat, "bbox max_lat", -90, 90)];
}

/** One entry of a SELECT list: `alias.column`, or an expression, named `as` (default: the column). */
export interface Selected {
  /** The answer column's name. */
  as: string;
  /** The SQL that produces it, e.g. `mu.mukey`. */
  sql: string;
}

/** The SELECT list, one item a line, in the order of the answer's columns. */
export function selectList(items: readonly Selected[]): string {
  return items.map(({ as, sql }) => (sql === as || sql.endsWith(`.${as}`) ? `  ${sql}` : `  ${sql} AS ${as}`)).join(",\n");
}

/**
 * The text as it may go to SDA: SDA refuses reserved words (user, bulk, ...) outside quoted text, so
 * a comment would break a query; none may be sent. Checked on every query before it leaves.
 */
export function commentFree(sql: string): string {
  if (sql.includes("--") || sql.includes("/*")) throw new Error("Loam tried to send Soil Data Access a query with a SQL comment; queries must carry none.");
  return sql;
}
