/**
 * What the USDA importers share (docs/decisions.md#import): the build reads a provider's folder of the
 * data directory as `loam import` reads the paths it is given, one download after another.
 */
import type { Database } from "bun:sqlite";
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { ImportResult } from "./provider";

/** Each path through `add`, in order, their datasets and warnings together. */
export async function eachDownload(db: Database, paths: readonly string[], add: (db: Database, path: string) => ImportResult | Promise<ImportResult>): Promise<ImportResult> {
  const result: ImportResult = { datasets: [], warnings: [] };
  for (const path of paths) {
    const added = await add(db, path);
    result.datasets.push(...added.datasets);
    result.warnings.push(...added.warnings);
  }
  return result;
}

/**
 * The downloads in `<dataDir>/<folder>/`: its folders and the files named like `files` (a README beside
 * them is not a dataset), those in no format the step reads left out with a warning saying `why`.
 */
export function folderDownloads(dataDir: string, folder: string, files: RegExp, formatOf: (path: string) => string | null, why: string): { paths: string[]; warnings: string[] } {
  const dir = join(dataDir, folder);
  const entries = existsSync(dir) ? readdirSync(dir).sort().map((name) => join(dir, name)).filter((path) => statSync(path).isDirectory() || files.test(path)) : [];
  const warnings: string[] = [];
  const paths = entries.filter((path) => formatOf(path) !== null || (warnings.push(`skipped ${folder}/${basename(path)}: ${why}`), false));
  return { paths, warnings };
}

/** Does the file begin with `signature` (a format's magic bytes: a zip's local header, SQLite's header string)? */
export function startsWith(path: string, signature: string): boolean {
  const fd = openSync(path, "r");
  try {
    const head = Buffer.alloc(signature.length);
    return readSync(fd, head, 0, head.length, 0) === head.length && head.toString("latin1") === signature;
  } finally {
    closeSync(fd);
  }
}
