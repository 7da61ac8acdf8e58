/**
 * The snapshot embedded in the single executable. `bun run build` (scripts/build.ts) generates the
 * compile entry, which imports the snapshot `with { type: "file" }` and registers it here through
 * src/compiled.ts. Running from source nothing is registered, and resolveEmbeddedSnapshot is null.
 *
 * bun:sqlite cannot open a file inside the executable (`/$bunfs/...`: SQLITE_CANTOPEN), so the
 * snapshot is copied out once, beside LOAM_DB, under a name that carries its content hash: later
 * starts of the same executable reuse the copy, a new build writes a new one and removes the old.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface EmbeddedSnapshot {
  /** The file inside the executable (a `/$bunfs/` path). */
  path: string;
  /** sha256 of the snapshot file, hex, computed at build time. */
  sha256: string;
  bytes: number;
}

const COPY_PREFIX = "loam-snapshot-";

let registered: EmbeddedSnapshot | null = null;

/** Called once by the compiled entry, before the command line runs. */
export function registerEmbeddedSnapshot(snapshot: EmbeddedSnapshot): void {
  registered = snapshot;
}

/** The snapshot this executable carries; null when running from source. */
export function embeddedSnapshot(): EmbeddedSnapshot | null {
  return registered;
}

/** Write the embedded snapshot to `target` atomically (temporary file, then rename). */
export async function copyEmbeddedSnapshot(target: string): Promise<void> {
  if (!registered) throw new Error("this program carries no embedded snapshot");
  mkdirSync(dirname(target) || ".", { recursive: true });
  const tmp = `${target}.tmp-${process.pid}`;
  try {
    await Bun.write(tmp, Bun.file(registered.path));
    if (statSync(tmp).size !== registered.bytes) throw new Error(`copy of the embedded snapshot at ${tmp} is incomplete`);
    renameSync(tmp, target);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** A copy already in `dir` for this very snapshot (same hash in the name, same size), or a fresh one. */
async function copyInto(dir: string, snapshot: EmbeddedSnapshot): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const name = `${COPY_PREFIX}${snapshot.sha256.slice(0, 16)}.sqlite`;
  const target = join(dir, name);
  let present = false;
  try {
    present = statSync(target).size === snapshot.bytes;
  } catch {
    present = false;
  }
  if (!present) await copyEmbeddedSnapshot(target);
  // Copies left by earlier builds; a process still serving one keeps its open file until it exits.
  try {
    for (const other of readdirSync(dir)) {
      if (other !== name && other.startsWith(COPY_PREFIX) && /\.sqlite$/.test(other)) rmSync(join(dir, other), { force: true });
    }
  } catch {
    // best effort: a stale copy costs disk space, nothing else
  }
  return target;
}

/**
 * The path of an openable copy of the embedded snapshot: beside the state database `dbPath`
 * (LOAM_DB), or in the system temporary directory when that one is in memory or not writable.
 * Null when running from source.
 */
export async function resolveEmbeddedSnapshot(dbPath: string): Promise<string | null> {
  const snapshot = registered;
  if (!snapshot) return null;
  const beside = dbPath === ":memory:" ? null : dirname(dbPath) || ".";
  if (beside) {
    try {
      return await copyInto(beside, snapshot);
    } catch {
      // fall through to the temporary directory
    }
  }
  return copyInto(tmpdir(), snapshot);
}
