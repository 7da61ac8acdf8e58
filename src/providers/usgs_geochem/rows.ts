/**
 * The answer of every usgs_geochem query, whichever transport made it: a slice of the file's table
 * (the columns asked for, their units, the site rows as strings) and when the file was read. Both
 * transports build it with the helpers here, so the snapshot and live mode answer the same cells.
 */
import { UpstreamError } from "../../errors";
import { nearestByGeodesic } from "../../geometry/geodesic";
import { Payload } from "../../upstream/transport";
import { ELEMENT_BY_PROPERTY, elementColumn } from "./elements";
import { SITE_COLUMNS } from "./file";

export const GEOCHEM_PROVIDER_ID = "usgs_geochem";

/** The payload (and what the cache stores). */
export interface GeochemSlice {
  columns: string[];
  units: string[];
  rows: string[][];
  /** Great-circle distances (km) of the rows from the asked point: nearest-site answers only. */
  distances?: number[];
  /** How many sites the query matches in all, every page together: box answers only. */
  matched?: number;
  /** When the file was read (snapshot: imported by the build; live: downloaded). */
  retrieved_at: string;
  /** Set when live mode serves its last good copy because a fresh download failed its check. */
  note: string | null;
}

/** The decoded answer: the slice and where each column is. */
export interface GeochemRows extends GeochemSlice {
  position: Map<string, number>;
}

/** The positions of the columns a query asks for: "all", or the site columns and one element's. */
export function wantedPositions(columns: readonly string[], wanted: "all" | { property: string | null }): number[] {
  if (wanted === "all") return columns.map((_, i) => i);
  const names: string[] = [...SITE_COLUMNS];
  const element = wanted.property === null ? undefined : ELEMENT_BY_PROPERTY.get(wanted.property);
  if (element) names.push(elementColumn(element));
  return names.map((name) => columns.indexOf(name));
}

export function slicePayload(
  table: { columns: readonly string[]; units: readonly string[] },
  positions: readonly number[],
  rows: readonly (readonly string[])[],
  file: { retrievedAt: string; note: string | null },
  distances?: number[],
  matched?: number,
): Payload {
  const slice: GeochemSlice = {
    columns: positions.map((p) => table.columns[p]!),
    units: positions.map((p) => table.units[p]!),
    rows: rows.map((row) => positions.map((p) => row[p]!)),
    retrieved_at: file.retrievedAt,
    note: file.note,
  };
  if (distances) slice.distances = distances;
  if (matched !== undefined) slice.matched = matched;
  return Payload.ofJson(slice);
}

const notATable = (why: string) => new UpstreamError(`The geochemistry answer is not a table of the DS 801 file (${why}).`, GEOCHEM_PROVIDER_ID);

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === "string");

export function decodeSlice(payload: Payload): GeochemRows {
  const json = payload.json() as Partial<GeochemSlice> | null;
  if (typeof json !== "object" || json === null) throw notATable("not an object");
  const { columns, units, rows } = json;
  if (!isStrings(columns) || !isStrings(units) || units.length !== columns.length) throw notATable("no column and unit rows");
  for (const name of SITE_COLUMNS) if (!columns.includes(name)) throw notATable(`no ${name} column`);
  if (!Array.isArray(rows) || !rows.every((row) => isStrings(row) && row.length === columns.length)) throw notATable("a row of another width");
  if (typeof json.retrieved_at !== "string") throw notATable("no retrieval time");
  return {
    columns,
    units,
    rows,
    distances: json.distances,
    ...(typeof json.matched === "number" ? { matched: json.matched } : {}),
    retrieved_at: json.retrieved_at,
    note: typeof json.note === "string" ? json.note : null,
    position: new Map(columns.map((name, i) => [name, i])),
  };
}

/**
 * The `limit` nearest of the sites (id, lat, lon), nearest first by geodesic distance on WGS84
 * (docs/decisions.md#geometry; ties: lower site id, the sites' order).
 */
export function nearestOf(sites: readonly { id: number; lat: number; lon: number }[], lat: number, lon: number, limit: number): { id: number; km: number }[] {
  return nearestByGeodesic(sites, lat, lon, limit, (site) => [site.lat, site.lon]).map(({ item, km }) => ({ id: item.id, km }));
}
