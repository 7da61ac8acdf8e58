/**
 * Start serving: validated configuration, the state database, the upstream source, the app,
 * and a graceful stop on SIGTERM/SIGINT (stop accepting, let in-flight requests finish within a
 * bound, close the database cleanly).
 */
import { existsSync } from "node:fs";
import type { Config } from "./config";
import { openDatabase } from "../db/client";
import { createApp } from "./app";
import { SdaSource } from "./upstream/sda/client";
import { SnapshotSource } from "./upstream/snapshot-source";
import type { UpstreamSource } from "./upstream/source";
import { buildSnapshot } from "./snapshot/build";
import { DEFAULT_SNAPSHOT_PATH } from "./snapshot/paths";
import { resolveEmbeddedSnapshot } from "./snapshot/embedded";

const SHUTDOWN_GRACE_MS = 10_000;

export function log(line: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`);
}

/** The snapshot to serve: LOAM_SNAPSHOT, else the one embedded in the executable, else data/snapshot.sqlite (built when missing). */
async function snapshotPath(config: Config): Promise<string> {
  if (config.snapshotPath) {
    if (!existsSync(config.snapshotPath)) throw new Error(`LOAM_SNAPSHOT: no snapshot database at ${config.snapshotPath}`);
    return config.snapshotPath;
  }
  const embedded = await resolveEmbeddedSnapshot(config.dbPath);
  if (embedded) return embedded;
  if (!existsSync(DEFAULT_SNAPSHOT_PATH)) {
    log({ level: "info", msg: `no snapshot at ${DEFAULT_SNAPSHOT_PATH}; building it from ${config.dataDir}` });
    await buildSnapshot({ dataDir: config.dataDir, outPath: DEFAULT_SNAPSHOT_PATH, onProgress: (line: string) => process.stderr.write(`${line}\n`) });
  }
  return DEFAULT_SNAPSHOT_PATH;
}

export async function openSource(config: Config): Promise<UpstreamSource> {
  if (config.upstream === "sda") return new SdaSource({ url: config.sdaUrl, timeoutMs: config.upstreamTimeoutMs });
  return new SnapshotSource(await snapshotPath(config));
}

export async function serve(config: Config) {
  const source = await openSource(config);
  const db = openDatabase(config.dbPath);
  const app = createApp({ config, db, source, log });
  app.listen({ port: config.port, hostname: config.host });
  const server = app.server!;
  log({ level: "info", msg: `loam listening on http://${server.hostname}:${server.port}`, upstream: source.describe() });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log({ level: "info", msg: `${signal}: stopping; finishing in-flight requests` });
    const forced = setTimeout(() => server.stop(true), SHUTDOWN_GRACE_MS);
    await server.stop(false);
    clearTimeout(forced);
    db.$client.close();
    source.close?.();
    log({ level: "info", msg: "stopped cleanly" });
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  return { app, server, db, source };
}
