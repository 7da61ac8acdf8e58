/**
 * The logical queries of usgs_geochem, each with its two forms: `snapshot` (the tables written by
 * src/providers/usgs_geochem/import.ts) and `geochem` (the checked download, ./transport.ts). Both answer
 * from the same in-memory index of the file (./table.ts) and send a slice of its table (./rows.ts),
 * decoded by one decoder.
 */
import type { QueryKind } from "../../upstream/transport";
import type { SiteBoxParams, SiteNearParams, SiteParams } from "../provider";
import { decodeSlice, GEOCHEM_PROVIDER_ID, type GeochemRows } from "./rows";
import { snapshotGeochem } from "./snapshot";
import { nearestSites, oneSite, sitesInBox } from "./table";
import type { GeochemLiveForm } from "./transport";

/**
 * In a national mirror the file holding the DS 801 table answers (docs/decisions.md#national-mirror):
 * the import writes it as one dataset (`usgs_geochem:ds801`), which a mirror holds in one file only, so
 * no answers are merged.
 */
const OFFLINE = { datasets: GEOCHEM_PROVIDER_ID } as const;

const raw = (answer: GeochemRows) => ({ columns: answer.columns, units: answer.units, rows: answer.rows });

/** A page of the sites in a box (and days, when given): site-id order after `after`, at most limit + 1 rows, and how many match in all. */
export const SITES_IN_BOX_QUERY: QueryKind<SiteBoxParams, GeochemRows> = {
  kind: "sites-in-box",
  columns: [],
  key: (p) => `${p.bbox.join(",")}|${p.after ?? ""}|${p.limit}|${p.property ?? ""}${p.days ? `|${p.days.first ?? ".."}/${p.days.last ?? ".."}` : ""}`,
  forms: {
    snapshot: { prepare: (file) => (params) => sitesInBox(snapshotGeochem(file.db), params), ...OFFLINE, reach: (p) => p.bbox },
    geochem: sitesInBox satisfies GeochemLiveForm<SiteBoxParams>,
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
    snapshot: { prepare: (file) => (params) => nearestSites(snapshotGeochem(file.db), params), ...OFFLINE },
    geochem: nearestSites satisfies GeochemLiveForm<SiteNearParams>,
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
    snapshot: { prepare: (file) => (params) => oneSite(snapshotGeochem(file.db), params), ...OFFLINE },
    geochem: oneSite satisfies GeochemLiveForm<SiteParams>,
  },
  decode: decodeSlice,
  raw,
};
