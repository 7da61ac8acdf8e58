/**
 * A national mirror of the repository's real exports (docs/decisions.md#national-mirror): each file of
 * the mirror written by `loam import --snapshot <file>`'s own code, as an operator writes one per state.
 * Tests serve it with LOAM_SNAPSHOT=<dir> and compare its answers with the one-file snapshot's.
 */
import { mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildSnapshot } from "../../src/snapshot/build";
import { importDownloads } from "../../src/snapshot/import";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import type { Provider } from "../../src/providers/provider";
import { DATA_DIR } from "./server";

/** One file of a mirror: its name in the mirror's directory, and what is imported into it (provider id, paths under DATA_DIR). */
export interface MirrorFile {
  name: string;
  imports: [provider: string, paths: string[]][];
}

const provider = (id: string): Provider => {
  const found = DEFAULT_PROVIDERS.find((p) => p.id === id);
  if (!found) throw new Error(`no provider ${id}`);
  return found;
};

/** Write each file into `dir` (created), importing in order; returns `dir`, what LOAM_SNAPSHOT names. */
export async function buildMirror(dir: string, files: readonly MirrorFile[]): Promise<string> {
  mkdirSync(dir, { recursive: true });
  for (const file of files) {
    const snapshotPath = join(dir, file.name);
    for (const [id, paths] of file.imports) {
      await importDownloads({ provider: provider(id), paths: paths.map((p) => join(DATA_DIR, p)), snapshotPath, dataDir: DATA_DIR });
    }
  }
  return dir;
}

/**
 * A snapshot file written as `loam snapshot build` writes one, from the repository's exports without the
 * `leftOut` paths under DATA_DIR (e.g. "ssurgo/IA015-aoi", held by another file of the mirror): the rest
 * of the data beside a state's file. The data folder it reads is links into DATA_DIR (under `dir`).
 */
export async function buildWithout(dir: string, name: string, leftOut: readonly string[]): Promise<string> {
  const data = join(dir, `${name}.data`);
  const link = (relative: string) => {
    mkdirSync(join(data, relative), { recursive: true });
    for (const entry of readdirSync(join(DATA_DIR, relative))) {
      const path = relative === "" ? entry : `${relative}/${entry}`;
      if (leftOut.includes(path)) continue;
      if (leftOut.some((p) => p.startsWith(`${path}/`))) link(path);
      else symlinkSync(resolve(DATA_DIR, path), join(data, path));
    }
  };
  link("");
  const outPath = join(dir, name);
  await buildSnapshot({ dataDir: data, outPath });
  return outPath;
}

/**
 * What differs between any two servers, masked: their port (absolute links), the clock (cache times) and
 * request ids (the files are built seconds apart, a day apart at midnight). No body names the source's identity (it is in the cache key and entity tag only), so
 * nothing else is masked.
 */
export const masked = (text: string): string =>
  text
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, "http://HOST")
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "T")
    .replace(/built \d{4}-\d\d-\d\d/g, "built D")
    .replace(/Retrieved \d{4}-\d\d-\d\d/g, "Retrieved D")
    .replace(/"age_seconds":\d+/g, '"age_seconds":0')
    .replace(/"request_id":"[0-9a-f-]+"/g, '"request_id":"R"');

/**
 * The warning naming the snapshot's coverage: its datasets' labels, which name each import (the build's
 * "Sierra de Neiba" clips are "imported, lon … lat …" when `loam import` reads them), so it is left out
 * where a mirror's files were imported otherwise than the one-file snapshot was built.
 */
const COVERAGE = "Served from Loam's offline snapshot";
export function withoutCoverage(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => !(typeof v === "string" && v.startsWith(COVERAGE))).map(withoutCoverage);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, withoutCoverage(v)]));
  return value;
}
