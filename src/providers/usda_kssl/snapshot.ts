/**
 * usda_kssl's part of the offline snapshot (docs/decisions.md#import): the Lab Data Mart's tables, as a
 * folder of CSV files or its SQLite / GeoPackage download, one dataset per folder or file (a state's
 * pedons, or the national database).
 */
import type { Database } from "bun:sqlite";
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { createBaseSchema, LAB_COLLECTION_DATASETS, type DatasetInfo } from "../../upstream/snapshot-schema";
import type { ImportFormat, ImportResult, SnapshotStep } from "../provider";
import { importKsslDatabase, importKsslFolder, type KsslFolderReport } from "./ldm-import";
import { US_STATE_NAMES } from "./us-states";

const FOLDER = "kssl";
const SHORT_NAME = "KSSL";

export const LDM_FORMATS: readonly ImportFormat[] = [
  { name: "LDM CSV", description: "a folder of Lab Data Mart tables as CSV (lab_combine_nasis_ncss.csv, lab_layer.csv, lab_chemical_properties.csv, lab_physical_properties.csv)" },
  { name: "LDM SQLite", description: "the Lab Data Mart's SQLite or GeoPackage download (.sqlite, .db, .gpkg; the same table names)" },
];

function isSqlite(path: string): boolean {
  const fd = openSync(path, "r");
  try {
    const head = Buffer.alloc(16);
    return readSync(fd, head, 0, 16, 0) === 16 && head.toString("latin1") === "SQLite format 3\0";
  } finally {
    closeSync(fd);
  }
}

function formatOf(path: string): string | null {
  if (!existsSync(path)) return null;
  if (statSync(path).isDirectory()) return existsSync(join(path, "lab_combine_nasis_ncss.csv")) ? LDM_FORMATS[0]!.name : null;
  return /\.(sqlite3?|db|gpkg)$/i.test(path) && isSqlite(path) ? LDM_FORMATS[1]!.name : null;
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

async function addAll(db: Database, paths: readonly string[], log: (line: string) => void): Promise<ImportResult> {
  const result: ImportResult = { datasets: [], warnings: [] };
  for (const path of paths) {
    const report = statSync(path).isDirectory() ? importKsslFolder(db, path, log) : importKsslDatabase(db, path, log);
    result.warnings.push(...report.warnings);
    result.datasets.push(collectionDataset(report, db));
  }
  return result;
}

export const KSSL_SNAPSHOT: SnapshotStep = {
  layout: "1",
  create: createBaseSchema,
  formats: LDM_FORMATS,
  formatOf,
  /** The build: every `<dataDir>/kssl/<collection>/` folder of CSV tables (or database file). */
  async import(db, dataDir, log) {
    const dir = join(dataDir, FOLDER);
    // Folders and downloads only: a README beside them is not a dataset.
    const entries = existsSync(dir) ? readdirSync(dir).sort().map((name) => join(dir, name)).filter((path) => statSync(path).isDirectory() || /\.(sqlite3?|db|gpkg)$/i.test(path)) : [];
    const warnings: string[] = [];
    const sources = entries.filter((path) => formatOf(path) !== null || (warnings.push(`skipped ${FOLDER}/${basename(path)}: no lab_combine_nasis_ncss.csv`), false));
    const added = await addAll(db, sources, log);
    return { datasets: added.datasets, warnings: [...warnings, ...added.warnings] };
  },
  importFiles: (db, paths, { log }) => addAll(db, paths, log),
};
