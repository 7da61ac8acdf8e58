/**
 * Unpacking a Web Soil Survey download. WSS zips hold one folder (e.g. `wss_aoi_2024-01-05_10-11-12/`
 * or `AZ649/`) with `tabular/` and `spatial/`, plus an MS Access template we never need.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize, sep } from "node:path";
import { unzipSync } from "fflate";

/** Extract `zipPath` into a fresh temporary directory and return it (caller removes it). */
export function extractZip(zipPath: string): string {
  const dir = mkdtempSync(join(tmpdir(), "loam-wss-"));
  try {
    let entries: Record<string, Uint8Array>;
    try {
      entries = unzipSync(readFileSync(zipPath), {
        // The .mdb template and thematic maps are large and unused; skip them before inflating.
        filter: (file) => !file.name.endsWith("/") && !/\.(mdb|accdb|pdf)$/i.test(file.name),
      });
    } catch (error) {
      throw new Error(`${zipPath}: not a complete zip (${error instanceof Error ? error.message : String(error)}); download it again`);
    }
    for (const [name, data] of Object.entries(entries)) {
      const rel = normalize(name.replaceAll("\\", "/"));
      if (rel.startsWith("..") || rel.startsWith(sep) || /^[A-Za-z]:/.test(rel)) throw new Error(`${zipPath}: unsafe entry path '${name}'`);
      const out = join(dir, rel);
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, data);
    }
    return dir;
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Folders at or below `root` (up to 4 levels) that contain a `tabular/` directory, sorted. */
export function findSurveyFolders(root: string, depth = 4): string[] {
  const found: string[] = [];
  const walk = (dir: string, level: number) => {
    if (existsSync(join(dir, "tabular")) && statSync(join(dir, "tabular")).isDirectory()) {
      found.push(dir);
      return;
    }
    if (level >= depth) return;
    for (const name of readdirSync(dir).sort()) {
      const child = join(dir, name);
      if (statSync(child).isDirectory()) walk(child, level + 1);
    }
  };
  walk(root, 0);
  return found;
}

/** Run `fn` on the survey folders of a folder or a .zip; temporary files are removed afterwards. */
export async function withSurveyFolders<T>(source: string, fn: (folders: string[]) => Promise<T>): Promise<T> {
  if (!existsSync(source)) throw new Error(`SSURGO source not found: ${source}`);
  const isZip = statSync(source).isFile();
  if (isZip && !/\.zip$/i.test(source)) throw new Error(`SSURGO source must be a folder or a .zip, got file ${source}`);
  const root = isZip ? extractZip(source) : source;
  try {
    const folders = findSurveyFolders(root);
    if (folders.length === 0) throw new Error(`${source}: no WSS survey folder (a folder with tabular/) found`);
    return await fn(folders);
  } finally {
    if (isZip) rmSync(root, { recursive: true, force: true });
  }
}
