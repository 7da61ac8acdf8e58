/**
 * A national mirror of the repository's real exports (docs/decisions.md#national-mirror): each file of
 * the mirror written by `loam import --snapshot <file>`'s own code, as an operator writes one per state.
 * Tests serve it with LOAM_SNAPSHOT=<dir> and compare its answers with the one-file snapshot's.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
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
