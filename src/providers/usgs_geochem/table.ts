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

export interface GeochemIndex {
  table: { columns: readonly string[]; units: readonly string[] };
  /** Rows in site-id order, with their ids and coordinates. */
  sites: { id: number; lat: number; lon: number; row: string[] }[];
  byId: Map<number, string[]>;
  /** When the file was read (snapshot: imported by the build; live: downloaded). */
  retrievedAt: string;
  /** Set when live mode serves its last good copy because a newer download was refused. */
  note: string | null;
}

export function indexGeochem(table: Pick<GeochemTable, "columns" | "units" | "rows">, retrievedAt: string): GeochemIndex {
  const sites = table.rows.map((row) => ({ id: Number(row[1]), lat: Number(row[3]), lon: Number(row[4]), row })).sort((a, b) => a.id - b.id);
  return { table: { columns: table.columns, units: table.units }, sites, byId: new Map(sites.map((s) => [s.id, s.row])), retrievedAt, note: null };
}

/** A page of the sites in a box: site-id order after `after`, at most limit + 1 rows (the extra one says more exist). */
export function sitesInBox(index: GeochemIndex, params: SiteBoxParams): Payload {
  const [minLon, minLat, maxLon, maxLat] = params.bbox;
  const after = params.after ?? 0;
  const rows: string[][] = [];
  for (const site of index.sites) {
    if (site.id <= after || site.lon < minLon || site.lon > maxLon || site.lat < minLat || site.lat > maxLat) continue;
    rows.push(site.row);
    if (rows.length > params.limit) break;
  }
  return slicePayload(index.table, wantedPositions(index.table.columns, params), rows, index);
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
