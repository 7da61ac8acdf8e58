/**
 * Import USGS Data Series 801, Appendix 2b (0-5 cm soil geochemistry) into the snapshot: the file at
 * `geochem/Appendix_2b_Top5_18Sept2013.txt` of the data directory, checked by the same reader live
 * mode uses (src/providers/usgs_geochem/file.ts), stored cell for cell as strings (docs/decisions.md#geochem-file):
 * `usgs_geochem_column` (position, name, unit from the unit row) and `usgs_geochem_site` (SiteID, coordinates
 * for the box and nearest-site queries, and the row's 82 cells as a JSON array).
 */
import type { Database } from "bun:sqlite";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readGeochemText } from "./file";
import { writeInfo, type DatasetInfo } from "../../upstream/snapshot-schema";

export const GEOCHEM_FILE = "geochem/Appendix_2b_Top5_18Sept2013.txt";

/** This provider's tables in the snapshot (docs/architecture.md#providers); a change to them bumps GEOCHEM_LAYOUT. */
export const GEOCHEM_LAYOUT = "1";

export function createGeochemTables(db: Database): void {
  db.run("CREATE TABLE IF NOT EXISTS usgs_geochem_column (position INTEGER PRIMARY KEY, name TEXT NOT NULL, unit TEXT NOT NULL)");
  db.run("CREATE TABLE IF NOT EXISTS usgs_geochem_site (site_id INTEGER PRIMARY KEY, latitude REAL NOT NULL, longitude REAL NOT NULL, cells TEXT NOT NULL)");
}

/**
 * The DS 801 table under `dataDir`, replacing any there; an absent file is a warning, not an error.
 * The snapshot step's import: the sites spread over the country name no place, so no dataset is listed.
 */
export function importGeochem(db: Database, dataDir: string, log: (line: string) => void = () => {}): { datasets: DatasetInfo[]; warnings: string[] } {
  createGeochemTables(db);
  const path = join(dataDir, GEOCHEM_FILE);
  if (!existsSync(path)) return { datasets: [], warnings: [`no ${GEOCHEM_FILE}: the snapshot holds no geochemistry sites`] };
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
  writeInfo(db, "geochem", JSON.stringify({ sites: table.rows.length, source: GEOCHEM_FILE, sha256, imported_at: new Date().toISOString() }));
  return { datasets: [], warnings: [] };
}
