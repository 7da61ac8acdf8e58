/**
 * The DS 801 table as the snapshot holds it (`usgs_geochem_column`, `usgs_geochem_site`, written by
 * src/providers/usgs_geochem/import.ts), read once per opened snapshot into the index both transports
 * answer from (./table.ts). Nothing of a request reaches SQL here.
 */
import type { Database } from "bun:sqlite";
import { UpstreamError } from "../../errors";
import { tableExists } from "../../upstream/snapshot-schema";
import { GEOCHEM_PROVIDER_ID } from "./rows";
import { indexGeochem, type GeochemIndex } from "./table";
import { SITE_COLUMNS } from "./file";

const NOT_IMPORTED =
  "This instance's offline snapshot holds no USGS DS 801 geochemistry sites (the file was not imported): add it with 'loam import usgs_geochem Appendix_2b_Top5_18Sept2013.txt', or run Loam in live mode.";

const indexes = new WeakMap<Database, GeochemIndex>();

export function snapshotGeochem(db: Database): GeochemIndex {
  const kept = indexes.get(db);
  if (kept) return kept;
  if (!tableExists(db, "usgs_geochem_site")) {
    throw new UpstreamError("The offline snapshot holds no geochemistry sites (it was built without geochem/ or before usgs_geochem): rebuild it with 'npm run snapshot:build'.", GEOCHEM_PROVIDER_ID);
  }
  const header = db.query<{ name: string; unit: string }, []>("SELECT name, unit FROM usgs_geochem_column ORDER BY position").all();
  if (header.length === 0) {
    // A snapshot made by `loam import` of other sources: an empty table, and a note saying how to add the file.
    const empty = { ...indexGeochem({ columns: [...SITE_COLUMNS], units: SITE_COLUMNS.map(() => ""), rows: [] }, new Date(0).toISOString()), note: NOT_IMPORTED };
    indexes.set(db, empty);
    return empty;
  }
  const info = db.query<{ value: string }, []>("SELECT value FROM snapshot_info WHERE key = 'geochem'").get();
  const rows = db
    .query<{ cells: string }, []>("SELECT cells FROM usgs_geochem_site ORDER BY site_id")
    .all()
    .map((r) => JSON.parse(r.cells) as string[]);
  const retrievedAt = info ? (JSON.parse(info.value) as { imported_at: string }).imported_at : new Date(0).toISOString();
  const index = indexGeochem({ columns: header.map((c) => c.name), units: header.map((c) => c.unit), rows }, retrievedAt);
  indexes.set(db, index);
  return index;
}
