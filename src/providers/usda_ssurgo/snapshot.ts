/**
 * usda_ssurgo's part of the offline snapshot (docs/decisions.md#import): Web Soil Survey downloads (a
 * .zip or its unpacked folder; one survey area, many, or a state's) into the SSURGO tables, one dataset
 * per survey area. Importing an area the snapshot holds replaces it: a newer release never sits beside
 * the older one.
 */
import type { Database } from "bun:sqlite";
import { existsSync, statSync } from "node:fs";
import { basename } from "node:path";
import { SURVEY_AREA_DATASETS, type DatasetInfo } from "../../upstream/snapshot-schema";
import type { ImportFormat, ImportResult, SnapshotStep } from "../provider";
import { eachDownload, folderDownloads, startsWith } from "../data-folder";
import { SSURGO_SHORT_NAME } from "./catalog";
import { createSsurgoTables, deleteSsurgoArea, importSsurgoFolder, legendAreaSymbols, type SsurgoFolderReport, type SurveyArea } from "./wss-import";
import { findSurveyFolders, withSurveyFolders } from "./wss-zip";

/** The survey areas' folder of the data directory (LOAM_DATA_DIR). */
const FOLDER = "ssurgo";

export const WSS_FORMATS: readonly ImportFormat[] = [
  { name: "WSS zip", description: "a Web Soil Survey download as it comes (.zip holding <area>/tabular/ and spatial/; one area, many, or a state's)" },
  { name: "WSS folder", description: "the same download unpacked: a folder with tabular/ (and spatial/), or a folder of such folders" },
];

/** A .zip by its name and its first bytes (a local file header); its content is read at import. */
function isZip(path: string): boolean {
  return /\.zip$/i.test(path) && startsWith(path, "PK\x03\x04");
}

function formatOf(path: string): string | null {
  if (!existsSync(path)) return null;
  if (statSync(path).isDirectory()) return findSurveyFolders(path).length > 0 ? WSS_FORMATS[1]!.name : null;
  return isZip(path) ? WSS_FORMATS[0]!.name : null;
}

/** The box of a survey area's polygons, or null when it has none. */
function areaBox(db: Database, areasymbol: string): [number, number, number, number] | null {
  const box = db
    .query<{ w: number | null; s: number; e: number; n: number }, [string]>("SELECT min(min_x) AS w, min(min_y) AS s, max(max_x) AS e, max(max_y) AS n FROM mupolygon WHERE areasymbol = ?")
    .get(areasymbol);
  return box && box.w !== null ? [box.w, box.s, box.e, box.n] : null;
}

/** Per-area row counts (an AOI export may hold several survey areas in one folder). */
function areaRows(db: Database, areasymbol: string): Record<string, number> {
  const count = (sql: string) => (db.query<{ n: number }, [string]>(sql).get(areasymbol)?.n ?? 0);
  const mukeys = "SELECT mukey FROM mapunit WHERE lkey IN (SELECT lkey FROM legend WHERE areasymbol = ?1)";
  const cokeys = `SELECT cokey FROM component WHERE mukey IN (${mukeys})`;
  return {
    legend: count("SELECT count(*) AS n FROM legend WHERE areasymbol = ?1"),
    mapunit: count(`SELECT count(*) AS n FROM mapunit WHERE lkey IN (SELECT lkey FROM legend WHERE areasymbol = ?1)`),
    component: count(`SELECT count(*) AS n FROM component WHERE mukey IN (${mukeys})`),
    chorizon: count(`SELECT count(*) AS n FROM chorizon WHERE cokey IN (${cokeys})`),
    muaggatt: count(`SELECT count(*) AS n FROM muaggatt WHERE mukey IN (${mukeys})`),
    chtexturegrp: count(`SELECT count(*) AS n FROM chtexturegrp WHERE chkey IN (SELECT chkey FROM chorizon WHERE cokey IN (${cokeys}))`),
    mupolygon: count("SELECT count(*) AS n FROM mupolygon WHERE areasymbol = ?1"),
  };
}

function areaDataset(db: Database, area: SurveyArea, report: SsurgoFolderReport, source: string, importedAt: string): DatasetInfo {
  const date = area.saverest?.slice(0, 10) ?? null;
  const version = [area.saversion === null ? null : `survey version ${area.saversion}`, date].filter(Boolean).join(", ");
  const clip = area.aoi ? "; area-of-interest extract only" : "";
  return {
    kind: SURVEY_AREA_DATASETS,
    id: area.areasymbol,
    label: `${SSURGO_SHORT_NAME} ${area.areasymbol} ${area.areaname ?? ""}`.trimEnd() + (version || clip ? ` (${version}${clip})` : ""),
    vintage: date,
    source,
    rows: areaRows(db, area.areasymbol),
    importedAt,
    bbox: areaBox(db, area.areasymbol),
    extra: { saversion: area.saversion, saverest: area.saverest, aoi: area.aoi, folder: basename(report.folder) },
  };
}

/** One download (zip or folder): each survey area it holds replaces the snapshot's rows of that area. */
async function addDownload(db: Database, source: string, log: (line: string) => void): Promise<ImportResult> {
  const datasets: DatasetInfo[] = [];
  const warnings: string[] = [];
  await withSurveyFolders(source, async (folders) => {
    for (const folder of folders) {
      for (const areasymbol of legendAreaSymbols(folder)) db.transaction(() => deleteSsurgoArea(db, areasymbol))();
      const report = await importSsurgoFolder(db, folder, log);
      warnings.push(...report.warnings);
      const importedAt = new Date().toISOString();
      for (const area of report.areas) datasets.push(areaDataset(db, area, report, source, importedAt));
    }
  });
  return { datasets, warnings };
}

export const SSURGO_SNAPSHOT: SnapshotStep = {
  // 2: polygon keys made from the survey area, not a row counter (docs/decisions.md#national-mirror).
  // 3: rings packed as integer differences, not raw doubles (docs/decisions.md#ring-encoding).
  layout: "3",
  create: createSsurgoTables,
  formats: WSS_FORMATS,
  formatOf,
  /** The build: every download under `<dataDir>/ssurgo/` (a folder per area, or zips). */
  async import(db, dataDir, log) {
    createSsurgoTables(db);
    const { paths, warnings } = folderDownloads(dataDir, FOLDER, /\.zip$/i, formatOf, "not a Web Soil Survey download (no tabular/ folder)");
    const added = await eachDownload(db, paths, (db, path) => addDownload(db, path, log));
    return { datasets: added.datasets, warnings: [...warnings, ...added.warnings] };
  },
  importFiles: (db, paths, { log }) => eachDownload(db, paths, (db, path) => addDownload(db, path, log)),
};
