/**
 * Loam inside the bench's own process, for the uncached benches (bench/summary.ts, geochem.ts,
 * areas.ts): the whole app answers `app.handle(request)` over data/snapshot.sqlite (built from
 * datasets when missing) with CACHE_TTL_SECONDS=0, so every request reads the snapshot again.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig } from "../src/config";
import { openDatabase } from "../db/client";
import { createApp, type LoamApp } from "../src/app";
import { SnapshotTransport } from "../src/upstream/snapshot";

const ROOT = resolve(import.meta.dir, "..");
export const SNAPSHOT = join(ROOT, "data", "snapshot.sqlite");

/** The app, uncached, with a fresh LOAM_DB under the system temp directory; `close` ends it. */
export function uncachedLoam(name: string): { app: LoamApp; close: () => void } {
  const ensure = Bun.spawnSync([process.execPath, "src/cli.ts", "snapshot", "ensure"], { cwd: ROOT, stderr: "inherit", stdout: "ignore" });
  if (ensure.exitCode !== 0) throw new Error("could not build the snapshot");
  const config = loadConfig({ CACHE_TTL_SECONDS: "0", RATE_LIMIT_PER_MINUTE: "1000000", LOAM_DB: join(mkdtempSync(join(tmpdir(), `loam-bench-${name}-`)), "loam.sqlite"), LOG_LEVEL: "error" });
  const db = openDatabase(config.dbPath);
  const app = createApp({ config, db, upstreams: { snapshot: new SnapshotTransport(SNAPSHOT) }, writeLine: () => {} });
  return { app, close: () => db.$client.close() };
}

/** One request through the app, its wall time in milliseconds; anything but a 200 stops the bench. */
export async function timedRequest(app: LoamApp, path: string): Promise<number> {
  const start = Bun.nanoseconds();
  const response = await app.handle(new Request(`http://127.0.0.1${path}`));
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${path.slice(0, 60)}: ${response.status}`);
  return (Bun.nanoseconds() - start) / 1e6;
}
