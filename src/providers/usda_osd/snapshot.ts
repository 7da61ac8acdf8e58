/**
 * The series descriptions and the Munsell table as the snapshot holds them (tables `usda_osd_series` and
 * `usda_osd_munsell_renotation`, written by src/providers/usda_osd/import.ts). The database handle comes from the
 * caller; nothing here opens files. Keys reach SQL only as bound parameters, and only after
 * `seriesKey` has reduced them to letters and `_`.
 */
import type { Database } from "bun:sqlite";
import { tableExists as hasTable } from "../../upstream/snapshot-schema";
import { munsellTable, type MunsellTable, type RenotationRow } from "./munsell";

export interface StoredOsd {
  /** The OSD file's exact JSON text. */
  json: string;
  /** Where the build read it, e.g. `osd/CLARION.json`. */
  source_file: string;
}

/** The stored OSD for a series key (NEW_CAMBRIA), or null when the snapshot has none. */
export function readStoredOsd(db: Database, key: string): StoredOsd | null {
  if (!hasTable(db, "usda_osd_series")) return null;
  return db.query<StoredOsd, [string]>("SELECT json, source_file FROM usda_osd_series WHERE series_key = ?").get(key) ?? null;
}

/** Series keys the snapshot has an OSD for (for the {name, url} links of components and pedons). */
export function storedSeriesKeys(db: Database): Set<string> {
  if (!hasTable(db, "usda_osd_series")) return new Set();
  return new Set(db.query<{ series_key: string }, []>("SELECT series_key FROM usda_osd_series").all().map((r) => r.series_key));
}

const tables = new WeakMap<Database, MunsellTable>();

/**
 * The renotation table, read from the snapshot once per database handle. Throws when the snapshot
 * predates series descriptions: every colour would otherwise silently lose its sRGB value.
 */
export function readMunsellTable(db: Database): MunsellTable {
  const cached = tables.get(db);
  if (cached) return cached;
  const rows = hasTable(db, "usda_osd_munsell_renotation")
    ? db.query<RenotationRow, []>("SELECT hue, value, chroma, x, y, luminance AS Y FROM usda_osd_munsell_renotation").all()
    : [];
  if (rows.length === 0) throw new Error("The snapshot holds no Munsell renotation table; rebuild it with 'loam snapshot build'.");
  const table = munsellTable(rows);
  tables.set(db, table);
  return table;
}
