/**
 * `loam import <provider> <path>...` (docs/decisions.md#import): add a user's downloads to a snapshot,
 * through the provider's own importer (its SnapshotStep's `formats`, `formatOf`, `importFiles`).
 *
 * - Refused before anything is written: a provider without an importer, a missing path, a path in no
 *   format the provider declares (the refusal names them), a snapshot of another layout.
 * - Atomic: the import fills a copy of the snapshot (a new one when there is none) and renames it into
 *   place; a failure or an interruption leaves the file as it was.
 * - Idempotent: each imported path's content hash is recorded; a path already imported with the same
 *   content is skipped, and when nothing is left to import the file is not rewritten at all.
 * - A newer release of a dataset replaces the older: each importer deletes the rows of what it adds.
 */
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { contentHash } from "../providers/file-hash";
import type { Provider, SnapshotStep } from "../providers/provider";
import { DEFAULT_PROVIDERS } from "../providers/registry";
import { integrityWarnings, readSnapshotInfo, writeDatasetInfo, writeInfo, type DatasetInfo } from "../upstream/snapshot-schema";
import { atomically, createSnapshot, processAlive, staleLayout } from "./build";

/** A refusal: nothing was read into the snapshot, nothing changed (the command line exits 2). */
export class ImportRefused extends Error {}

export interface ImportOptions {
  provider: Provider;
  paths: readonly string[];
  snapshotPath: string;
  /** The data folder (reference tables an importer may need, e.g. a colour table). */
  dataDir: string;
  /** Whose tables a new snapshot holds (default: the registry's providers). */
  providers?: readonly Provider[];
  /** Progress: a line, how many of the paths are done, and whether it is an importer's detail (a table, a file) rather than a path starting or ending. */
  onProgress?: (line: string, done: number, total: number, detail: boolean) => void;
}

export interface ImportedPath {
  path: string;
  format: string;
  /** Already imported with the same content: skipped. */
  unchanged: boolean;
  datasets: DatasetInfo[];
  seconds: number;
}

export interface ImportReport {
  snapshotPath: string;
  /** The snapshot did not exist and was created. */
  created: boolean;
  paths: ImportedPath[];
  warnings: string[];
  seconds: number;
  bytes: number;
}

type Importer = Required<Pick<SnapshotStep, "formats" | "formatOf" | "importFiles">>;

function importerOf(provider: Provider): Importer | null {
  const step = "snapshot" in provider ? provider.snapshot : undefined;
  return step?.formats && step.formatOf && step.importFiles ? (step as Importer) : null;
}

/** The providers that import, each with its formats (for `loam import --help`). */
export function importers(providers: readonly Provider[] = DEFAULT_PROVIDERS): { id: string; formats: Importer["formats"] }[] {
  return providers.flatMap((p) => {
    const importer = importerOf(p);
    return importer ? [{ id: p.id, formats: importer.formats }] : [];
  });
}

const formatList = (importer: Importer) => importer.formats.map((f) => `${f.name}: ${f.description}`).join("; ");

const importKey = (providerId: string, hash: string) => `import:${providerId}:${hash}`;

/** The snapshot_info values of an existing snapshot, refused when it is not one or of another layout. */
function existingInfo(snapshotPath: string, providers: readonly Provider[]): Map<string, string> {
  let values: Map<string, string>;
  try {
    const db = new Database(snapshotPath, { readonly: true });
    try {
      values = readSnapshotInfo(db).values;
    } finally {
      db.close();
    }
  } catch {
    throw new ImportRefused(`${snapshotPath} is not a Loam snapshot; name another file with --snapshot`);
  }
  const stale = staleLayout(values, providers);
  if (stale) throw new ImportRefused(`the snapshot at ${snapshotPath} has an older layout (${stale}); rebuild it with 'loam snapshot build' first`);
  return values;
}

/** Check every path against the provider's formats; the format of each. */
function checkPaths(provider: Provider, importer: Importer, paths: readonly string[]): string[] {
  if (paths.length === 0) throw new ImportRefused(`name at least one download to import into ${provider.id}; it reads ${formatList(importer)}`);
  return paths.map((path) => {
    if (!existsSync(path)) throw new ImportRefused(`${path}: no such file or folder`);
    const format = importer.formatOf(path);
    if (format === null) throw new ImportRefused(`${path} is in no format ${provider.id} reads; it reads ${formatList(importer)}`);
    return format;
  });
}

/**
 * One writer at a time per snapshot: two imports copying the same file would each rename their copy into
 * place, and the later would drop the earlier's datasets. The lock file holds its owner's pid; a lock
 * whose owner died is taken over.
 */
function lockSnapshot(snapshotPath: string): () => void {
  const lock = `${snapshotPath}.lock`;
  mkdirSync(dirname(lock) || ".", { recursive: true });
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lock, String(process.pid), { flag: "wx" });
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw error;
      const owner = Number(readFileSync(lock, "utf8"));
      if (Number.isInteger(owner) && owner !== process.pid && processAlive(owner)) throw new ImportRefused(`another import (process ${owner}) is writing ${snapshotPath}; run this one when it ends`);
      rmSync(lock, { force: true });
    }
  }
}

export async function importDownloads(options: ImportOptions): Promise<ImportReport> {
  const release = lockSnapshot(options.snapshotPath);
  try {
    return await importLocked(options);
  } finally {
    release();
  }
}

async function importLocked(options: ImportOptions): Promise<ImportReport> {
  const { provider, paths, snapshotPath, dataDir, providers = DEFAULT_PROVIDERS, onProgress = () => {} } = options;
  const started = performance.now();
  const importer = importerOf(provider);
  if (!importer) throw new ImportRefused(`${provider.id} has no importer; these do: ${importers(providers).map((i) => i.id).join(", ")}`);
  const formats = checkPaths(provider, importer, paths);
  const created = !existsSync(snapshotPath);
  const known = created ? new Map<string, string>() : existingInfo(snapshotPath, providers);
  const hashes = paths.map((path) => contentHash(path));
  const imported: ImportedPath[] = paths.map((path, i) => ({ path, format: formats[i]!, unchanged: known.has(importKey(provider.id, hashes[i]!)), datasets: [], seconds: 0 }));
  const todo = imported.filter((p) => !p.unchanged);
  const report: ImportReport = { snapshotPath, created, paths: imported, warnings: [], seconds: 0, bytes: 0 };
  if (todo.length > 0) {
    const prepare = (tmp: string) => {
      if (!created) copyFileSync(snapshotPath, tmp);
    };
    await atomically(snapshotPath, prepare, async (db) => {
      if (created) createSnapshot(db, providers);
      const now = new Date().toISOString();
      for (const [n, entry] of todo.entries()) {
        const t0 = performance.now();
        onProgress(`${provider.id}: importing ${entry.path} (${entry.format})`, n, todo.length, false);
        const added = await importer.importFiles(db, [entry.path], { dataDir, log: (line) => onProgress(line, n, todo.length, true) });
        for (const info of added.datasets) writeDatasetInfo(db, info);
        entry.datasets = added.datasets;
        report.warnings.push(...added.warnings);
        const hash = hashes[imported.indexOf(entry)]!;
        writeInfo(db, importKey(provider.id, hash), JSON.stringify({ path: resolve(entry.path), format: entry.format, datasets: added.datasets.map((d) => d.id), imported_at: now }));
        entry.seconds = (performance.now() - t0) / 1000;
        onProgress(`${provider.id}: ${entry.path} imported (${added.datasets.length} dataset(s), ${entry.seconds.toFixed(2)} s)`, n + 1, todo.length, false);
      }
      report.warnings.push(...integrityWarnings(db));
      if (created) writeInfo(db, "built_at", now);
      writeInfo(db, "updated_at", now);
      writeInfo(db, "warnings", JSON.stringify(report.warnings));
    });
  }
  report.seconds = (performance.now() - started) / 1000;
  report.bytes = statSync(snapshotPath).size;
  return report;
}

/** One summary line per dataset (and per unchanged path), for the end of the command. */
export function summaryLines(providerId: string, report: ImportReport): string[] {
  return report.paths.flatMap((p) => {
    if (p.unchanged) return [`${providerId}: ${p.path}: unchanged (already imported with the same content)`];
    if (p.datasets.length === 0) return [`${providerId}: ${p.path}: imported in ${p.seconds.toFixed(2)} s`];
    return p.datasets.map((d) => {
      const rows = Object.entries(d.rows ?? {}).map(([table, n]) => `${table} ${n}`).join(", ");
      return `${providerId}: ${d.label}${rows ? `: ${rows}` : ""} (from ${p.path}, ${p.seconds.toFixed(2)} s)`;
    });
  });
}
