/**
 * The DS 801 table indexed in memory, as both transports answer from it: the snapshot reads its
 * `usgs_geochem_site` rows once per opened snapshot, live mode indexes the checked download. 4,857 rows of
 * 82 short strings: a few megabytes, and a page of 1,000 sites or the nearest sites of a point is then a
 * walk over an array instead of a query and 1,000 parses per request (docs/decisions.md#geochem-file).
 */
import type { SiteBoxParams, SiteNearParams, SiteParams } from "../provider";
import type { Payload } from "../../upstream/transport";
import type { GeochemTable } from "./file";
import { nearestOf, slicePayload, wantedPositions } from "./rows";
import { isoDate } from "./decode";

export interface GeochemIndex {
  table: { columns: readonly string[]; units: readonly string[] };
  /** Rows in site-id order, with their ids, coordinates and collection dates (ISO; null when the cell is not a date). */
  sites: { id: number; lat: number; lon: number; date: string | null; row: string[] }[];
  byId: Map<number, string[]>;
  /** When the file was read (snapshot: imported by the build; live: downloaded). */
  retrievedAt: string;
  /** Set when live mode serves its last good copy because a newer download was refused. */
  note: string | null;
}

export function indexGeochem(table: Pick<GeochemTable, "columns" | "units" | "rows">, retrievedAt: string): GeochemIndex {
  const sites = table.rows.map((row) => ({ id: Number(row[1]), lat: Number(row[3]), lon: Number(row[4]), date: isoDate(row[5]!), row })).sort((a, b) => a.id - b.id);
  return { table: { columns: table.columns, units: table.units }, sites, byId: new Map(sites.map((s) => [s.id, s.row])), retrievedAt, note: null };
}

/**
 * A page of the sites in a box (and on the days asked, when given): site-id order after `after`, at
 * most limit + 1 rows (the extra one says more exist), and how many sites of the box and days there
 * are in all: a walk over the in-memory index, so counting costs as little as paging (numberMatched,
 * docs/decisions.md#ogc-api-features).
 */
export function sitesInBox(index: GeochemIndex, params: SiteBoxParams): Payload {
  const [minLon, minLat, maxLon, maxLat] = params.bbox;
  const after = params.after === null ? 0 : Number(params.after);
  const { first = null, last = null } = params.days ?? {};
  const dated = params.days !== undefined;
  const rows: string[][] = [];
  let matched = 0;
  for (const site of index.sites) {
    if (site.lon < minLon || site.lon > maxLon || site.lat < minLat || site.lat > maxLat) continue;
    if (dated && (site.date === null || (first !== null && site.date < first) || (last !== null && site.date > last))) continue;
    matched += 1;
    if (site.id > after && rows.length <= params.limit) rows.push(site.row);
  }
  return slicePayload(index.table, wantedPositions(index.table.columns, params), rows, index, undefined, matched);
}

export function nearestSites(index: GeochemIndex, params: SiteNearParams): Payload {
  const near = nearestOf(index.sites, params.latitude, params.longitude, params.limit);
  const rows = near.map((n) => index.byId.get(n.id)!);
  return slicePayload(index.table, wantedPositions(index.table.columns, params), rows, index, near.map((n) => n.km));
}

/** One site, every column (no rows: no such site). */
export function oneSite(index: GeochemIndex, params: SiteParams): Payload {
  const row = index.byId.get(params.siteId);
  return slicePayload(index.table, wantedPositions(index.table.columns, "all"), row ? [row] : [], index);
}
