/**
 * Import Official Series Descriptions and the Munsell renotation table into the snapshot:
 * `osd/<SERIES>.json` (SoilKnowledgeBase's parsed OSDs, file name = series name upper-cased, spaces
 * as `_`) and `munsell/munsell-all.dat.gz` (the RIT renotation file `all.dat`, gzip).
 *
 * Each OSD is stored as the exact text of its file, so the snapshot and live mode feed the same
 * parser; every file is parsed here once too, so a file the parser rejects is reported at build time
 * instead of failing a request.
 */
import type { Database } from "bun:sqlite";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { munsellTable, type MunsellTable } from "./munsell";
import { parseOsd, seriesKey } from "./parse";
import { MUNSELL_FILE, readRenotationFile } from "./renotation-file";
import { writeInfo, type DatasetInfo } from "../../upstream/snapshot-schema";

export const OSD_FOLDER = "osd";

/** This provider's tables in the snapshot (docs/architecture.md#providers); a change to them bumps OSD_LAYOUT. */
export const OSD_LAYOUT = "1";

export function createOsdTables(db: Database): void {
  db.run(`CREATE TABLE IF NOT EXISTS usda_osd_series (
    series_key TEXT PRIMARY KEY, series_name TEXT NOT NULL, revdate TEXT, json TEXT NOT NULL, source_file TEXT NOT NULL)`);
  db.run(`CREATE TABLE IF NOT EXISTS usda_osd_munsell_renotation (
    hue TEXT NOT NULL, value REAL NOT NULL, chroma REAL NOT NULL, x REAL NOT NULL, y REAL NOT NULL, luminance REAL NOT NULL,
    PRIMARY KEY (hue, value, chroma))`);
}


/** The renotation rows into `usda_osd_munsell_renotation` (replacing any there); returns the indexed table. */
export function importMunsell(db: Database, gzPath: string): MunsellTable {
  const rows = readRenotationFile(gzPath);
  db.run("DELETE FROM usda_osd_munsell_renotation");
  const insert = db.query("INSERT INTO usda_osd_munsell_renotation (hue, value, chroma, x, y, luminance) VALUES (?, ?, ?, ?, ?, ?)");
  db.transaction(() => {
    for (const r of rows) insert.run(r.hue, r.value, r.chroma, r.x, r.y, r.Y);
  })();
  return munsellTable(rows);
}

/**
 * Every `osd/*.json` and the Munsell table under `dataDir`; absent folders are warnings, not errors.
 * The snapshot step's import: series descriptions name no place, so no dataset is listed in the coverage.
 */
export function importOsd(db: Database, dataDir: string, log: (line: string) => void = () => {}): { datasets: DatasetInfo[]; warnings: string[] } {
  createOsdTables(db);
  const warnings: string[] = [];
  const munsellPath = join(dataDir, MUNSELL_FILE);
  if (!existsSync(munsellPath)) {
    warnings.push(`no ${MUNSELL_FILE}: series descriptions are not imported (their colours need the renotation table)`);
    return { datasets: [], warnings };
  }
  log(`importing the Munsell renotation table from ${munsellPath}`);
  const table = importMunsell(db, munsellPath);

  const folder = join(dataDir, OSD_FOLDER);
  const files = existsSync(folder) ? readdirSync(folder).filter((f) => f.toLowerCase().endsWith(".json")).sort() : [];
  if (files.length === 0) warnings.push(`no ${OSD_FOLDER}/*.json: the snapshot holds no series descriptions`);
  log(`importing ${files.length} series descriptions from ${folder}`);
  const insert = db.query("INSERT OR REPLACE INTO usda_osd_series (series_key, series_name, revdate, json, source_file) VALUES (?, ?, ?, ?, ?)");
  let series = 0;
  db.transaction(() => {
    for (const file of files) {
      const key = seriesKey(file.replace(/\.json$/i, ""));
      if (key === null) {
        warnings.push(`skipped ${OSD_FOLDER}/${file}: the file name is not a series name`);
        continue;
      }
      const text = readFileSync(join(folder, file), "utf8");
      let parsed;
      try {
        parsed = parseOsd(text, table);
      } catch (error) {
        warnings.push(`skipped ${OSD_FOLDER}/${file}: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      if (seriesKey(parsed.series.name) !== key) warnings.push(`${OSD_FOLDER}/${file} describes series ${parsed.series.name}; stored under ${key}`);
      insert.run(key, parsed.series.name, parsed.revision.date, text, `${OSD_FOLDER}/${file}`);
      series += 1;
    }
  })();
  writeInfo(db, "osd", JSON.stringify({ series, munsell_rows: table.rowCount, source: folder, imported_at: new Date().toISOString() }));
  return { datasets: [], warnings };
}
