/**
 * Build the offline snapshot: a new snapshot holding every registered provider's tables, then each
 * provider's import of its part of the data folder (docs/decisions.md#import). The build writes a
 * temporary file next to the target and renames it into place, so a failure (or a crash) mid-way
 * leaves the previous snapshot untouched; `loam import` (./import.ts) adds to a snapshot the same way.
 */
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { createBaseSchema, integrityWarnings, SNAPSHOT_FORMAT_VERSION, writeDatasetInfo, writeIdentity, writeInfo, type DatasetInfo } from "../upstream/snapshot-schema";
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

const tmpPathFor = (outPath: string) => `${outPath}.tmp-${process.pid}`;

/** Open a scratch database tuned for bulk loading: it is renamed into place only when complete. */
function openScratch(path: string): Database {
  const db = new Database(path, { create: true, readwrite: true });
  db.run("PRAGMA journal_mode = OFF");
  db.run("PRAGMA synchronous = OFF");
  db.run("PRAGMA cache_size = -65536");
  return db;
}

/** Is process `pid` running (EPERM: it is, as another user's)? */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Temporary copies left by builds or imports that died (killed, crashed): never renamed into place, so only removed. */
function removeStaleTemps(outPath: string): void {
  const dir = dirname(outPath) || ".";
  const prefix = `${basename(outPath)}.tmp-`;
  for (const name of readdirSync(dir)) {
    const pid = name.startsWith(prefix) ? Number(name.slice(prefix.length)) : NaN;
    if (Number.isInteger(pid) && pid !== process.pid && !processAlive(pid)) rmSync(join(dir, name), { force: true });
  }
}

export async function atomically<T>(outPath: string, prepare: (tmp: string) => void, fill: (db: Database) => Promise<T>): Promise<T> {
  mkdirSync(dirname(outPath) || ".", { recursive: true });
  removeStaleTemps(outPath);
  const tmp = tmpPathFor(outPath);
  rmSync(tmp, { force: true });
  let db: Database | null = null;
  try {
    prepare(tmp);
    db = openScratch(tmp);
    const result = await fill(db);
    // Every build and import names what the file now holds (docs/decisions.md#snapshot-identity).
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

export function tableCounts(db: Database): Record<string, number> {
  const counts: Record<string, number> = {};
  const tables = db
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'mupolygon_rtree_%' ORDER BY name")
    .all();
  for (const { name } of tables) counts[name] = db.query<{ n: number }, []>(`SELECT count(*) AS n FROM "${name.replaceAll('"', '""')}"`).get()?.n ?? 0;
  return counts;
}

/** A new snapshot's layout and every provider's tables, empty, each provider's layout recorded. */
export function createSnapshot(db: Database, providers: readonly Provider[] = DEFAULT_PROVIDERS): void {
  createBaseSchema(db);
  writeInfo(db, "format_version", SNAPSHOT_FORMAT_VERSION);
  for (const { id, step } of snapshotSteps(providers)) {
    step.create?.(db);
    writeInfo(db, layoutKey(id), step.layout);
  }
}

/** Build a fresh snapshot at `outPath`: each provider imports its part of `dataDir`. */
export async function buildSnapshot({ dataDir, outPath, onProgress = () => {}, providers = DEFAULT_PROVIDERS }: BuildOptions): Promise<SnapshotReport> {
  const started = performance.now();
  if (!existsSync(dataDir) || !statSync(dataDir).isDirectory()) throw new Error(`No data folder at ${dataDir} (set LOAM_DATA_DIR, or add downloads with 'loam import')`);
  const warnings: string[] = [];
  const builtAt = new Date().toISOString();
  const datasets: DatasetInfo[] = [];
  let tables: Record<string, number> = {};
  await atomically(outPath, () => {}, async (db) => {
    createSnapshot(db, providers);
    for (const { step } of snapshotSteps(providers)) {
      const added = await step.import(db, dataDir, onProgress);
      for (const info of added.datasets) writeDatasetInfo(db, info);
      datasets.push(...added.datasets);
      warnings.push(...added.warnings);
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
