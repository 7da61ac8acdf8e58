/**
 * Build the offline snapshot from every export under the data directory, or add one Web Soil Survey
 * download to an existing snapshot. Both write a temporary file next to the target and rename it
 * into place, so a failure (or a crash) mid-way leaves the previous snapshot untouched.
 */
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { importKsslFolder, type KsslFolderReport } from "./kssl-import";
import {
  createBaseSchema,
  integrityWarnings,
  LAB_COLLECTION_DATASETS,
  readSnapshotInfo,
  SNAPSHOT_FORMAT_VERSION,
  SURVEY_AREA_DATASETS,
  writeDatasetInfo,
  writeIdentity,
  writeInfo,
  type DatasetInfo,
} from "../upstream/snapshot-schema";
import { deleteSsurgoArea, importSsurgoFolder, legendAreaSymbols, type SsurgoFolderReport, type SurveyArea } from "./ssurgo-import";
import { findSurveyFolders, withSurveyFolders } from "./zip";
import { US_STATE_NAMES } from "./us-states";
import type { Provider } from "../providers/provider";
import { DEFAULT_PROVIDERS, snapshotSteps } from "../providers/registry";

export interface SnapshotReport {
  outPath: string;
  builtAt: string;
  /** Row counts per table over the whole snapshot. */
  tables: Record<string, number>;
  datasets: DatasetInfo[];
  /** Orphan keys, missing files, absent versions: everything kept but worth a look. */
  warnings: string[];
  seconds: number;
  bytes: number;
}

export interface BuildOptions {
  dataDir: string;
  outPath: string;
  /** One human-readable progress line at a time (the CLI writes them to stderr). */
  onProgress?: (line: string) => void;
  /** Whose snapshot steps to run (default: the registry's providers). */
  providers?: readonly Provider[];
}

/** The snapshot_info key of a provider's own table layout (docs/architecture.md#providers). */
export const layoutKey = (providerId: string) => `layout:${providerId}`;

/**
 * Why a snapshot must be rebuilt for these providers, or null: the shared layout changed, or a provider's
 * own tables are of another layout (or missing).
 */
export function staleLayout(values: ReadonlyMap<string, string>, providers: readonly Provider[] = DEFAULT_PROVIDERS): string | null {
  const shared = values.get("format_version") ?? "unknown";
  if (shared !== SNAPSHOT_FORMAT_VERSION) return `layout ${shared}, now ${SNAPSHOT_FORMAT_VERSION}`;
  for (const { id, step } of snapshotSteps(providers)) {
    const held = values.get(layoutKey(id));
    if (held !== step.layout) return `${id} tables of layout ${held ?? "none"}, now ${step.layout}`;
  }
  return null;
}

export interface ImportOptions {
  /** A WSS survey-area folder, or the .zip Web Soil Survey downloads. */
  source: string;
  snapshotPath: string;
  onProgress?: (line: string) => void;
}

const tmpPathFor = (outPath: string) => `${outPath}.tmp-${process.pid}`;

/** Open a scratch database tuned for bulk loading: it is renamed into place only when complete. */
function openScratch(path: string): Database {
  const db = new Database(path, { create: true, readwrite: true });
  db.run("PRAGMA journal_mode = OFF");
  db.run("PRAGMA synchronous = OFF");
  db.run("PRAGMA cache_size = -65536");
  return db;
}

async function atomically<T>(outPath: string, prepare: (tmp: string) => void, fill: (db: Database) => Promise<T>): Promise<T> {
  mkdirSync(dirname(outPath) || ".", { recursive: true });
  const tmp = tmpPathFor(outPath);
  rmSync(tmp, { force: true });
  let db: Database | null = null;
  try {
    prepare(tmp);
    db = openScratch(tmp);
    const result = await fill(db);
    writeIdentity(db);
    db.run("PRAGMA optimize");
    // Only a replaced survey area leaves free pages; a fresh build has none worth a full rewrite.
    if ((db.query<{ freelist_count: number }, []>("PRAGMA freelist_count").get()?.freelist_count ?? 0) > 0) db.run("VACUUM");
    db.close();
    db = null;
    renameSync(tmp, outPath);
    return result;
  } catch (error) {
    db?.close();
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** The box of a survey area's polygons, or null when it has none. */
function areaBox(db: Database, areasymbol: string): [number, number, number, number] | null {
  const box = db
    .query<{ w: number | null; s: number; e: number; n: number }, [string]>("SELECT min(min_x) AS w, min(min_y) AS s, max(max_x) AS e, max(max_y) AS n FROM mupolygon WHERE areasymbol = ?")
    .get(areasymbol);
  return box && box.w !== null ? [box.w, box.s, box.e, box.n] : null;
}

function ssurgoDataset(area: SurveyArea, report: SsurgoFolderReport, source: string, importedAt: string, rows: Record<string, number>, bbox: [number, number, number, number] | null): DatasetInfo {
  const date = area.saverest?.slice(0, 10) ?? null;
  const version = [area.saversion === null ? null : `survey version ${area.saversion}`, date].filter(Boolean).join(", ");
  const clip = area.aoi ? "; area-of-interest extract only" : "";
  return {
    kind: SURVEY_AREA_DATASETS,
    id: area.areasymbol,
    label: `SSURGO ${area.areasymbol} ${area.areaname ?? ""}`.trimEnd() + (version || clip ? ` (${version}${clip})` : ""),
    vintage: date,
    source,
    rows,
    importedAt,
    bbox,
    extra: { saversion: area.saversion, saverest: area.saverest, aoi: area.aoi, folder: basename(report.folder) },
  };
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

async function addSsurgo(db: Database, source: string, log: (line: string) => void, replace: boolean): Promise<{ datasets: DatasetInfo[]; warnings: string[] }> {
  const datasets: DatasetInfo[] = [];
  const warnings: string[] = [];
  await withSurveyFolders(source, async (folders) => {
    for (const folder of folders) {
      if (replace) {
        for (const areasymbol of legendAreaSymbols(folder)) {
          log(`replacing survey area ${areasymbol}`);
          db.transaction(() => deleteSsurgoArea(db, areasymbol))();
        }
      }
      const report = await importSsurgoFolder(db, folder, log);
      warnings.push(...report.warnings);
      const importedAt = new Date().toISOString();
      for (const area of report.areas) {
        const info = ssurgoDataset(area, report, source, importedAt, areaRows(db, area.areasymbol), areaBox(db, area.areasymbol));
        writeDatasetInfo(db, info);
        datasets.push(info);
      }
    }
  });
  return { datasets, warnings };
}

function ksslDataset(report: KsslFolderReport, db: Database): DatasetInfo {
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
    label: `KSSL ${place} lab pedons (${pedons})`,
    vintage,
    source: report.folder,
    rows: report.rows,
    importedAt: new Date().toISOString(),
  };
}

function tableCounts(db: Database): Record<string, number> {
  const counts: Record<string, number> = {};
  const tables = db
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'mupolygon_rtree_%' ORDER BY name")
    .all();
  for (const { name } of tables) counts[name] = db.query<{ n: number }, []>(`SELECT count(*) AS n FROM "${name.replaceAll('"', '""')}"`).get()?.n ?? 0;
  return counts;
}

function subfolders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isDirectory() || /\.zip$/i.test(path));
}

/** Build a fresh snapshot at `outPath` from `dataDir/ssurgo/*` and `dataDir/kssl/*`. */
export async function buildSnapshot({ dataDir, outPath, onProgress = () => {}, providers = DEFAULT_PROVIDERS }: BuildOptions): Promise<SnapshotReport> {
  const started = performance.now();
  const warnings: string[] = [];
  const skip = (path: string, why: string) => {
    warnings.push(`skipped ${relative(dataDir, path)}: ${why}`);
    return false;
  };
  const ssurgo = subfolders(join(dataDir, "ssurgo")).filter(
    (p) => /\.zip$/i.test(p) || findSurveyFolders(p).length > 0 || skip(p, "no tabular/ folder (not a WSS SSURGO export)"),
  );
  const kssl = subfolders(join(dataDir, "kssl")).filter(
    (p) => (statSync(p).isDirectory() && existsSync(join(p, "lab_combine_nasis_ncss.csv"))) || skip(p, "no lab_combine_nasis_ncss.csv"),
  );
  if (ssurgo.length + kssl.length === 0) throw new Error(`No datasets under ${dataDir} (expected ssurgo/<area>/ or kssl/<state>/ folders)`);
  const builtAt = new Date().toISOString();
  const datasets: DatasetInfo[] = [];
  let tables: Record<string, number> = {};
  await atomically(outPath, () => {}, async (db) => {
    createBaseSchema(db);
    writeInfo(db, "format_version", SNAPSHOT_FORMAT_VERSION);
    for (const source of ssurgo) {
      const added = await addSsurgo(db, source, onProgress, false);
      datasets.push(...added.datasets);
      warnings.push(...added.warnings);
    }
    for (const folder of kssl) {
      const report = importKsslFolder(db, folder, onProgress);
      warnings.push(...report.warnings);
      const info = ksslDataset(report, db);
      writeDatasetInfo(db, info);
      datasets.push(info);
    }
    // Each provider with tables of its own imports them (docs/architecture.md#providers).
    for (const { id, step } of snapshotSteps(providers)) {
      const added = await step.import(db, dataDir, onProgress);
      for (const info of added.datasets) writeDatasetInfo(db, info);
      datasets.push(...added.datasets);
      warnings.push(...added.warnings);
      writeInfo(db, layoutKey(id), step.layout);
    }
    onProgress("checking keys");
    warnings.push(...integrityWarnings(db));
    for (const w of warnings) onProgress(`warning: ${w}`);
    writeInfo(db, "built_at", builtAt);
    writeInfo(db, "warnings", JSON.stringify(warnings));
    tables = tableCounts(db);
  });
  const report = { outPath, builtAt, tables, datasets, warnings, seconds: (performance.now() - started) / 1000, bytes: statSync(outPath).size };
  onProgress(`snapshot written: ${outPath} (${(report.bytes / 1e6).toFixed(1)} MB, ${report.seconds.toFixed(1)} s)`);
  return report;
}

/** Add (or replace, by area symbol) one WSS download in the existing snapshot at `snapshotPath`. */
export async function importSsurgo({ source, snapshotPath, onProgress = () => {} }: ImportOptions): Promise<SnapshotReport> {
  const started = performance.now();
  if (!existsSync(snapshotPath)) throw new Error(`No snapshot at ${snapshotPath}; build one first with 'npm run snapshot:build'.`);
  const report = await atomically(
    snapshotPath,
    (tmp) => copyFileSync(snapshotPath, tmp),
    async (db) => {
      readSnapshotInfo(db); // fails early on a file that is not a snapshot
      createBaseSchema(db);
      const added = await addSsurgo(db, source, onProgress, true);
      const warnings = [...added.warnings, ...integrityWarnings(db)];
      for (const w of warnings) onProgress(`warning: ${w}`);
      const updatedAt = new Date().toISOString();
      writeInfo(db, "updated_at", updatedAt);
      writeInfo(db, "warnings", JSON.stringify(warnings));
      const info = readSnapshotInfo(db);
      return {
        outPath: snapshotPath,
        builtAt: info.values.get("built_at") ?? updatedAt,
        tables: tableCounts(db),
        datasets: added.datasets,
        warnings,
        seconds: 0,
        bytes: 0,
      } satisfies SnapshotReport;
    },
  );
  report.seconds = (performance.now() - started) / 1000;
  report.bytes = statSync(snapshotPath).size;
  onProgress(`snapshot updated: ${snapshotPath} (${report.datasets.map((d) => d.id).join(", ")})`);
  return report;
}
