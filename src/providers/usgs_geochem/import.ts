/**
 * Import USGS Data Series 801, Appendix 2b (0-5 cm soil geochemistry) into the snapshot: the file at
 * `geochem/Appendix_2b_Top5_18Sept2013.txt` of the data directory, checked by the same reader live
 * mode uses (src/providers/usgs_geochem/file.ts), stored cell for cell as strings (docs/decisions.md#geochem-file):
 * `usgs_geochem_column` (position, name, unit from the unit row) and `usgs_geochem_site` (SiteID, coordinates
 * for the box and nearest-site queries, and the row's 82 cells as a JSON array).
 */
import type { Database } from "bun:sqlite";
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { ImportContext, ImportFormat, ImportResult } from "../provider";
import { readGeochemText } from "./file";
import { GEOCHEM_PROVIDER_ID } from "./rows";
import { writeInfo, type DatasetInfo } from "../../upstream/snapshot-schema";

export const GEOCHEM_FILE = "geochem/Appendix_2b_Top5_18Sept2013.txt";

/** This provider's tables in the snapshot (docs/architecture.md#providers); a change to them bumps GEOCHEM_LAYOUT. */
export const GEOCHEM_LAYOUT = "1";

export function createGeochemTables(db: Database): void {
  db.run("CREATE TABLE IF NOT EXISTS usgs_geochem_column (position INTEGER PRIMARY KEY, name TEXT NOT NULL, unit TEXT NOT NULL)");
  db.run("CREATE TABLE IF NOT EXISTS usgs_geochem_site (site_id INTEGER PRIMARY KEY, latitude REAL NOT NULL, longitude REAL NOT NULL, cells TEXT NOT NULL)");
}

/** The DS 801 table of the file at `path`, replacing any there (a newer release replaces the older; the file is the whole dataset). */
function importGeochemFile(db: Database, path: string, source: string, log: (line: string) => void): DatasetInfo {
  createGeochemTables(db);
  log(`importing USGS DS 801 geochemistry from ${path}`);
  const bytes = readFileSync(path);
  const table = readGeochemText(bytes.toString("latin1"));
  db.transaction(() => {
    db.run("DELETE FROM usgs_geochem_column");
    db.run("DELETE FROM usgs_geochem_site");
    const column = db.query("INSERT INTO usgs_geochem_column (position, name, unit) VALUES (?, ?, ?)");
    table.columns.forEach((name, i) => column.run(i, name, table.units[i]!));
    const site = db.query("INSERT INTO usgs_geochem_site (site_id, latitude, longitude, cells) VALUES (?, ?, ?, ?)");
    for (const row of table.rows) site.run(Number(row[1]), Number(row[3]), Number(row[4]), JSON.stringify(row));
  })();
  const sha256 = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
  const importedAt = new Date().toISOString();
  writeInfo(db, "geochem", JSON.stringify({ sites: table.rows.length, source, sha256, imported_at: importedAt }));
  // The sites spread over the country: a dataset of the coverage, not a place of the map.
  return { kind: GEOCHEM_PROVIDER_ID, id: "ds801", label: `USGS DS 801 Appendix 2b, 0-5 cm soil geochemistry (${table.rows.length} sites)`, vintage: null, source, rows: { usgs_geochem_site: table.rows.length }, importedAt };
}

/**
 * The DS 801 table under `dataDir`, replacing any there; an absent file is a warning, not an error.
 * The snapshot step's import.
 */
export function importGeochem(db: Database, dataDir: string, log: (line: string) => void = () => {}): { datasets: DatasetInfo[]; warnings: string[] } {
  createGeochemTables(db);
  const path = join(dataDir, GEOCHEM_FILE);
  if (!existsSync(path)) return { datasets: [], warnings: [`no ${GEOCHEM_FILE}: the snapshot holds no geochemistry sites`] };
  return { datasets: [importGeochemFile(db, path, GEOCHEM_FILE, log)], warnings: [] };
}

/** The format `loam import` reads: the DS 801 Appendix 2b text file, as USGS publishes it. */
export const GEOCHEM_FORMATS: readonly ImportFormat[] = [
  { name: "DS 801 file", description: "USGS Data Series 801 Appendix 2b, the tab-separated text file (Appendix_2b_Top5_18Sept2013.txt); it is the whole dataset, so it replaces the one held" },
];

/** A text file whose header row starts with Top5_LabID (read in full at import). */
export function geochemFormatOf(path: string): string | null {
  if (!existsSync(path) || !statSync(path).isFile() || !/\.txt$/i.test(path)) return null;
  const head = readFileSync(path).subarray(0, 1 << 16).toString("latin1");
  return /(^|\n)Top5_LabID\t/.test(head) ? GEOCHEM_FORMATS[0]!.name : null;
}

export async function importGeochemFiles(db: Database, paths: readonly string[], { log }: ImportContext): Promise<ImportResult> {
  return { datasets: paths.map((path) => importGeochemFile(db, path, basename(path), log)), warnings: [] };
}
