/**
 * usda_kssl's part of the offline snapshot (docs/decisions.md#import): the Lab Data Mart's tables, as a
 * folder of CSV files or its SQLite / GeoPackage download, one dataset per folder or file (a state's
 * pedons, or the national database).
 */
import type { Database } from "bun:sqlite";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { createBaseSchema, LAB_COLLECTION_DATASETS, type DatasetInfo } from "../../upstream/snapshot-schema";
import type { ImportFormat, ImportResult, SnapshotStep } from "../provider";
import { eachDownload, folderDownloads, startsWith } from "../data-folder";
import { importKsslDatabase, importKsslFolder, type KsslFolderReport } from "./ldm-import";
import { US_STATE_NAMES } from "./us-states";

const FOLDER = "kssl";
/** The names the Lab Data Mart's database download has (SQLite or GeoPackage). */
const DATABASE_FILE = /\.(sqlite3?|db|gpkg)$/i;
const SHORT_NAME = "KSSL";

export const LDM_FORMATS: readonly ImportFormat[] = [
  { name: "LDM CSV", description: "a folder of Lab Data Mart tables as CSV (lab_combine_nasis_ncss.csv, lab_layer.csv, lab_chemical_properties.csv, lab_physical_properties.csv)" },
  { name: "LDM SQLite", description: "the Lab Data Mart's SQLite or GeoPackage download (.sqlite, .db, .gpkg; the same table names)" },
];

function formatOf(path: string): string | null {
  if (!existsSync(path)) return null;
  if (statSync(path).isDirectory()) return existsSync(join(path, "lab_combine_nasis_ncss.csv")) ? LDM_FORMATS[0]!.name : null;
  return DATABASE_FILE.test(path) && startsWith(path, "SQLite format 3\0") ? LDM_FORMATS[1]!.name : null;
}

function collectionDataset(report: KsslFolderReport, db: Database): DatasetInfo {
  const pedons = report.rows.lab_combine_nasis_ncss ?? 0;
  const place = US_STATE_NAMES[report.collection.toUpperCase()] ?? report.collection;
  let vintage: string | null = null;
  if (report.rows.extra_source_fields_pedon !== undefined) {
    // The LDM export has no version; the source's fiscal years are the closest thing to a vintage.
    const fy = db.query<{ lo: string | null; hi: string | null }, []>(
      "SELECT min(fiscal_year) AS lo, max(fiscal_year) AS hi FROM extra_source_fields_pedon WHERE fiscal_year GLOB '[0-9][0-9][0-9][0-9]*'",
    ).get();
    if (fy?.lo && fy.hi) vintage = fy.lo === fy.hi ? `FY${fy.lo}` : `FY${fy.lo}-FY${fy.hi}`;
  }
  return {
    kind: LAB_COLLECTION_DATASETS,
    id: report.collection,
    label: `${SHORT_NAME} ${place} lab pedons (${pedons})`,
    vintage,
    source: report.folder,
    rows: report.rows,
    importedAt: new Date().toISOString(),
  };
}

/** One download: a folder of CSV tables, or the database file. */
function addDownload(db: Database, path: string, log: (line: string) => void): ImportResult {
  const report = statSync(path).isDirectory() ? importKsslFolder(db, path, log) : importKsslDatabase(db, path, log);
  return { datasets: [collectionDataset(report, db)], warnings: report.warnings };
}

export const KSSL_SNAPSHOT: SnapshotStep = {
  layout: "1",
  create: createBaseSchema,
  formats: LDM_FORMATS,
  formatOf,
  /** The build: every `<dataDir>/kssl/<collection>/` folder of CSV tables (or database file). */
  async import(db, dataDir, log) {
    const { paths, warnings } = folderDownloads(dataDir, FOLDER, DATABASE_FILE, formatOf, "no lab_combine_nasis_ncss.csv");
    const added = await eachDownload(db, paths, (db, path) => addDownload(db, path, log));
    return { datasets: added.datasets, warnings: [...warnings, ...added.warnings] };
  },
  importFiles: (db, paths, { log }) => eachDownload(db, paths, (db, path) => addDownload(db, path, log)),
};
