/**
 * The logical queries of usgs_geochem, each with its two forms: `snapshot` (the tables written by
 * src/snapshot/geochem-import.ts) and `geochem` (the checked file in memory, ./transport.ts). Both
 * answer a slice of the file's table (./rows.ts), decoded by one decoder.
 */
import type { QueryKind } from "../../upstream/transport";
import type { SiteBoxParams, SiteNearParams, SiteParams } from "../provider";
import { decodeSlice, nearestOf, slicePayload, wantedPositions, type GeochemRows } from "./rows";
import { snapshotGeochem } from "./snapshot";
import type { GeochemLiveForm } from "./transport";

const raw = (answer: GeochemRows) => ({ columns: answer.columns, units: answer.units, rows: answer.rows });

/** A page of the sites in a box: site-id order after `after`, at most limit + 1 rows. */
export const SITES_IN_BOX_QUERY: QueryKind<SiteBoxParams, GeochemRows> = {
  kind: "sites-in-box",
  columns: [],
  key: (p) => `${p.bbox.join(",")}|${p.after ?? ""}|${p.limit}|${p.property ?? ""}`,
  forms: {
    snapshot: { prepare: (file) => (params) => snapshotGeochem(file.db).inBox(params) },
    geochem: ((params, file) => {
      const [minLon, minLat, maxLon, maxLat] = params.bbox;
      const after = params.after ?? 0;
      const rows: string[][] = [];
      for (const site of file.sites) {
        if (site.id <= after || site.lon < minLon || site.lon > maxLon || site.lat < minLat || site.lat > maxLat) continue;
        rows.push(site.row);
        if (rows.length > params.limit) break;
      }
      return slicePayload(file.table, wantedPositions(file.table.columns, params), rows, file);
    }) satisfies GeochemLiveForm<SiteBoxParams>,
  },
  decode: decodeSlice,
  raw,
};

/** The sites nearest a point, nearest first, with their distances. */
export const NEAREST_SITES_QUERY: QueryKind<SiteNearParams, GeochemRows> = {
  kind: "nearest-sites",
  columns: [],
  key: (p) => `${p.latitude},${p.longitude}|${p.limit}|${p.property ?? ""}`,
  forms: {
    snapshot: { prepare: (file) => (params) => snapshotGeochem(file.db).nearest(params) },
    geochem: ((params, file) => {
      const near = nearestOf(file.sites, params.latitude, params.longitude, params.limit);
      const rows = near.map((n) => file.byId.get(n.id)!);
      return slicePayload(file.table, wantedPositions(file.table.columns, params), rows, file, near.map((n) => n.km));
    }) satisfies GeochemLiveForm<SiteNearParams>,
  },
  decode: decodeSlice,
  raw,
};

/** One site, every column (no rows: no such site). */
export const SITE_QUERY: QueryKind<SiteParams, GeochemRows> = {
  kind: "site",
  columns: [],
  key: (p) => String(p.siteId),
  forms: {
    snapshot: { prepare: (file) => (params) => snapshotGeochem(file.db).site(params) },
    geochem: ((params, file) => {
      const row = file.byId.get(params.siteId);
      return slicePayload(file.table, wantedPositions(file.table.columns, "all"), row ? [row] : [], file);
    }) satisfies GeochemLiveForm<SiteParams>,
  },
  decode: decodeSlice,
  raw,
};
