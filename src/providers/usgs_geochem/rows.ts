/**
 * The answer of every usgs_geochem query, whichever transport made it: a slice of the file's table
 * (the columns asked for, their units, the site rows as strings) and when the file was read. Both
 * transports build it with the helpers here, so the snapshot and live mode answer the same cells.
 */
import { UpstreamError } from "../../errors";
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

const EARTH_RADIUS_KM = 6371.0088;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle (haversine) distance on the mean Earth sphere, km. */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const a = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lon2 - lon1) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * The `limit` nearest of the sites (id, lat, lon), nearest first (ties: lower site id). One pass
 * keeping the best `limit` in order (limit is at most 100), instead of sorting every site.
 */
export function nearestOf(sites: readonly { id: number; lat: number; lon: number }[], lat: number, lon: number, limit: number): { id: number; km: number }[] {
  const best: { id: number; km: number }[] = [];
  const before = (a: { id: number; km: number }, b: { id: number; km: number }) => a.km < b.km || (a.km === b.km && a.id < b.id);
  for (const site of sites) {
    const candidate = { id: site.id, km: distanceKm(lat, lon, site.lat, site.lon) };
    if (best.length === limit && !before(candidate, best[limit - 1]!)) continue;
    let i = best.length;
    while (i > 0 && before(candidate, best[i - 1]!)) i -= 1;
    best.splice(i, 0, candidate);
    if (best.length > limit) best.pop();
  }
  return best;
}
