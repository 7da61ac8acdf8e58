/**
 * Real filesystem faults for storage tests: a tiny tmpfs (full after a few hundred KB) or a
 * read-only mount, when the test runs as root and may mount; otherwise null, and the caller falls
 * back to what an unprivileged user can do (a read-only file or directory by mode).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Mounted {
  dir: string;
  /** Remount read-only (or back to read-write). */
  remount(readOnly: boolean): void;
  unmount(): void;
}

export const isRoot = typeof process.getuid === "function" && process.getuid() === 0;

function run(args: string[]): boolean {
  return Bun.spawnSync(args, { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
}

/** A tmpfs of `sizeKb` mounted on a fresh directory (read-only when asked), or null when mounting is not possible. */
export function mountTmpfs(sizeKb: number, readOnly = false): Mounted | null {
  if (!isRoot) return null;
  const dir = mkdtempSync(join(tmpdir(), "loam-tmpfs-"));
  if (!run(["mount", "-t", "tmpfs", "-o", `size=${sizeKb}k${readOnly ? ",ro" : ""}`, "tmpfs", dir])) {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  return {
    dir,
    remount: (ro) => {
      if (!run(["mount", "-o", `remount,${ro ? "ro" : "rw"}`, dir])) throw new Error(`remount of ${dir} failed`);
    },
    unmount: () => {
      run(["umount", "-l", dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
