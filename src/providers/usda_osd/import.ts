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
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { munsellTable, type MunsellTable, type RenotationRow } from "./munsell";
import type { ImportContext, ImportFormat, ImportResult } from "../provider";
import { parseOsd, seriesKey } from "./parse";
import { OSD_PROVIDER_ID } from "./series";
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

/** Store each OSD file (`files`: path and the name it is cited by), parsed once to reject what the parser cannot read; a series held is replaced. */
function importSeriesFiles(db: Database, files: readonly { path: string; name: string }[], table: MunsellTable, warnings: string[]): number {
  const insert = db.query("INSERT OR REPLACE INTO usda_osd_series (series_key, series_name, revdate, json, source_file) VALUES (?, ?, ?, ?, ?)");
  let series = 0;
  db.transaction(() => {
    for (const { path, name } of files) {
      const file = basename(path);
      const key = seriesKey(file.replace(/\.json$/i, ""));
      if (key === null) {
        warnings.push(`skipped ${name}: the file name is not a series name`);
        continue;
      }
      const text = readFileSync(path, "utf8");
      let parsed;
      try {
        parsed = parseOsd(text, table);
      } catch (error) {
        warnings.push(`skipped ${name}: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      if (seriesKey(parsed.series.name) !== key) warnings.push(`${name} describes series ${parsed.series.name}; stored under ${key}`);
      insert.run(key, parsed.series.name, parsed.revision.date, text, name);
      series += 1;
    }
  })();
  return series;
}

/** The one dataset of the series the snapshot holds now (none when it holds none). */
function seriesDataset(db: Database, source: string): DatasetInfo[] {
  const series = db.query<{ n: number }, []>("SELECT count(*) AS n FROM usda_osd_series").get()?.n ?? 0;
  if (series === 0) return [];
  return [{ kind: OSD_PROVIDER_ID, id: "series", label: `Soil series descriptions (${series}, SoilKnowledgeBase JSON)`, vintage: null, source, rows: { usda_osd_series: series }, importedAt: new Date().toISOString() }];
}

const jsonFiles = (folder: string) => (existsSync(folder) ? readdirSync(folder).filter((f) => f.toLowerCase().endsWith(".json")).sort() : []);

/**
 * Every `osd/*.json` and the Munsell table under `dataDir`; absent folders are warnings, not errors.
 * The snapshot step's import: series descriptions name no place, so their dataset is a coverage line only.
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
  const files = jsonFiles(folder);
  if (files.length === 0) warnings.push(`no ${OSD_FOLDER}/*.json: the snapshot holds no series descriptions`);
  log(`importing ${files.length} series descriptions from ${folder}`);
  const series = importSeriesFiles(db, files.map((f) => ({ path: join(folder, f), name: `${OSD_FOLDER}/${f}` })), table, warnings);
  writeInfo(db, "osd", JSON.stringify({ series, munsell_rows: table.rowCount, source: folder, imported_at: new Date().toISOString() }));
  return { datasets: seriesDataset(db, OSD_FOLDER), warnings };
}

/** What `loam import` reads: SoilKnowledgeBase's parsed OSD files. */
export const OSD_FORMATS: readonly ImportFormat[] = [
  { name: "OSD JSON", description: "SoilKnowledgeBase OSD JSON files (<SERIES>.json, as in its inst/extdata/OSD/<letter>/), or a folder of them" },
];

export function osdFormatOf(path: string): string | null {
  if (!existsSync(path)) return null;
  if (statSync(path).isDirectory()) return jsonFiles(path).length > 0 ? OSD_FORMATS[0]!.name : null;
  return /\.json$/i.test(path) ? OSD_FORMATS[0]!.name : null;
}

/**
 * Series descriptions into the snapshot; each replaces the same series held. Their colours need the
 * renotation table: read from the data folder when the snapshot has none yet.
 */
export async function importOsdFiles(db: Database, paths: readonly string[], { dataDir, log }: ImportContext): Promise<ImportResult> {
  createOsdTables(db);
  const warnings: string[] = [];
  const held = db.query<{ n: number }, []>("SELECT count(*) AS n FROM usda_osd_munsell_renotation").get()?.n ?? 0;
  let table: MunsellTable;
  if (held > 0) table = munsellTable(db.query<RenotationRow, []>("SELECT hue, value, chroma, x, y, luminance AS Y FROM usda_osd_munsell_renotation").all());
  else {
    const munsellPath = join(dataDir, MUNSELL_FILE);
    if (!existsSync(munsellPath)) throw new Error(`series colours need the Munsell renotation table (${MUNSELL_FILE} in the data folder ${dataDir}); none found`);
    log(`importing the Munsell renotation table from ${munsellPath}`);
    table = importMunsell(db, munsellPath);
  }
  const files = paths.flatMap((path) => (statSync(path).isDirectory() ? jsonFiles(path).map((f) => join(path, f)) : [path]));
  log(`importing ${files.length} series descriptions`);
  const series = importSeriesFiles(db, files.map((path) => ({ path, name: `${OSD_FOLDER}/${basename(path)}` })), table, warnings);
  const total = db.query<{ n: number }, []>("SELECT count(*) AS n FROM usda_osd_series").get()?.n ?? series;
  writeInfo(db, "osd", JSON.stringify({ series: total, munsell_rows: table.rowCount, source: paths.join(", "), imported_at: new Date().toISOString() }));
  return { datasets: seriesDataset(db, paths.join(", ")), warnings };
}
