/**
 * A Loam child whose LOAM_DB sits on a tiny tmpfs that a filler then fills (root only: mounting), for
 * the storage tests of the cache and the rate counters. Stopped and unmounted after each test.
 */
import { afterEach, expect } from "bun:test";
import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { startLoggedChild, type LoggedChild } from "./child-output";
import { mountTmpfs, type Mounted } from "./filesystems";

/** Write zeros into `dir` until the filesystem refuses (ENOSPC), the last partial block too; returns the bytes written. */
export function fill(dir: string): number {
  let written = 0;
  for (const [name, size] of [["filler", 64 * 1024], ["filler-tail", 512]] as const) {
    const fd = openSync(join(dir, name), "w");
    try {
      for (;;) written += writeSync(fd, Buffer.alloc(size));
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOSPC") throw error;
    } finally {
      closeSync(fd);
    }
  }
  return written;
}

/** loam_storage_errors_total of one store and operation in a /metrics text; 0 when absent. */
export function storageErrors(metrics: string, store: string, operation: string): number {
  const match = new RegExp(`^loam_storage_errors_total\\{store="${store}",operation="${operation}"\\} (\\d+)$`, "m").exec(metrics);
  return match ? Number(match[1]) : 0;
}

/** Call in a describe: returns `start(env)`, which starts Loam on a LOAM_DB that is then made full. */
export function useFullStateDb(): (env: Record<string, string>) => Promise<LoggedChild> {
  let mount: Mounted | null = null;
  let loam: LoggedChild | null = null;
  afterEach(async () => {
    await loam?.stop();
    mount?.unmount();
    loam = null;
    mount = null;
  });
  return async (env) => {
    mount = mountTmpfs(1024);
    expect(mount).not.toBeNull();
    loam = await startLoggedChild({ LOAM_DB: join(mount!.dir, "loam.sqlite"), ...env });
    expect(fill(mount!.dir)).toBeGreaterThan(0);
    return loam;
  };
}
