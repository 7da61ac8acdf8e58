/**
 * Start serving: validated configuration, the state database, the upstream source, the app,
 * and a graceful stop on SIGTERM/SIGINT (stop accepting, let in-flight requests finish within a
 * bound, close the database cleanly).
 */
import { existsSync } from "node:fs";
import type { Config } from "./config";
import { openStateDatabase } from "./state-db";
import { createApp, listen } from "./app";
import { bufferedStdout } from "./http/access-log";
import { SdaTransport } from "./upstream/sda/client";
import { openSnapshots, snapshotFiles } from "./upstream/snapshot-mirror";
import type { SharedUpstreams } from "./providers/provider";
import type { SourceDescription, Transport } from "./upstream/transport";
import { Database } from "bun:sqlite";
import { buildSnapshot, staleLayout } from "./snapshot/build";
import { readSnapshotInfo } from "./upstream/snapshot-schema";
import { DEFAULT_SNAPSHOT_PATH } from "./snapshot/paths";
import { resolveEmbeddedSnapshot } from "./snapshot/embedded";

const SHUTDOWN_GRACE_MS = 10_000;

export function log(line: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`);
}

/** The snapshot to serve: LOAM_SNAPSHOT (one file, or a mirror's files: docs/decisions.md#national-mirror), else the one embedded in the executable, else data/snapshot.sqlite (built when missing). */
export async function snapshotPath(config: Config): Promise<string> {
  if (config.snapshotPath) {
    snapshotFiles(config.snapshotPath); // each file it names exists, or the start stops here
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

/** The shared transport of the configured upstream (LOAM_UPSTREAM): SDA, or the offline snapshot. */
export async function openUpstreams(config: Config): Promise<SharedUpstreams> {
  if (config.upstream === "sda") return { sda: new SdaTransport({ url: config.sdaUrl, timeoutMs: config.upstreamTimeoutMs }) };
  const spec = await snapshotPath(config);
  for (const file of snapshotFiles(spec)) refuseOlderLayout(file);
  return { snapshot: openSnapshots(spec) };
}

/**
 * A snapshot written by an older release (its shared format or a provider's tables of another layout)
 * stops the start, naming what to do; served, its first query of those tables would fail
 * (docs/decisions.md#import). `npm start` rebuilds the default snapshot before this; a file the operator
 * named (a mirror's state file) is theirs to rebuild or import again.
 */
function refuseOlderLayout(file: string): void {
  let stale: string | null;
  const db = new Database(file, { readonly: true });
  try {
    stale = staleLayout(readSnapshotInfo(db).values);
  } catch {
    return; // not a Loam snapshot: the transport's open says so
  } finally {
    db.close();
  }
  if (stale !== null) {
    throw new Error(`LOAM_SNAPSHOT: ${file} was written by an older release (${stale}); rebuild it with 'loam snapshot build', or import its downloads again into a new file with 'loam import <provider> <path>... --snapshot <file>'`);
  }
}

/**
 * What the start line says of the source: which, where, built when, its identity and its coverage in
 * words. Its datasets' and survey areas' boxes are served (GET /v1/layers), not logged: they made the
 * first line a new user reads a screenful of numbers.
 */
function startLineSource({ datasets: _datasets, areas: _areas, ...said }: SourceDescription): Omit<SourceDescription, "datasets" | "areas"> {
  return said;
}

export interface ServeOptions {
  /** Set when this process is one of LOAM_WORKERS (src/workers.ts): it shares the port with the others. */
  worker?: number;
}

export async function serve(config: Config, options: ServeOptions = {}) {
  const worker = options.worker;
  const logLine = worker === undefined ? log : (line: Record<string, unknown>) => log({ ...line, worker });
  // LOAM_DB first: a path that cannot hold it stops the start before any snapshot work (state-db.ts).
  const db = openStateDatabase(config.dbPath, logLine);
  const upstreams = await openUpstreams(config);
  const source: Transport | undefined = upstreams.sda ?? upstreams.snapshot;
  const accessLogOut = bufferedStdout();
  const app = createApp({ config, db, upstreams, log: logLine, writeLine: accessLogOut, worker: worker === undefined ? undefined : String(worker) });
  const server = listen(app, { port: config.port, hostname: config.host, reusePort: worker !== undefined });
  logLine({ level: "info", msg: `loam listening on http://${server.hostname}:${server.port}`, upstream: source && startLineSource(source.describe()) });

  // Stop accepting at once; give requests in flight up to SHUTDOWN_GRACE_MS (a second signal cuts
  // them short); then close the state database (a WAL checkpoint) and the snapshot, and exit 0.
  let stopping = false;
  let cut: (() => void) | undefined;
  const stop = async (signal: string) => {
    if (stopping) {
      logLine({ level: "info", msg: `${signal} again: closing in-flight connections now` });
      return cut?.();
    }
    stopping = true;
    logLine({ level: "info", msg: `${signal}: stopping; finishing in-flight requests`, in_flight: server.pendingRequests });
    const drained = server.stop(false).then(() => true);
    const overdue = new Promise<false>((resolve) => {
      const timer = setTimeout(() => resolve(false), SHUTDOWN_GRACE_MS);
      cut = () => (clearTimeout(timer), resolve(false));
    });
    if (!(await Promise.race([drained, overdue]))) {
      logLine({ level: "warn", msg: "in-flight requests cut short", in_flight: server.pendingRequests });
      await Promise.race([server.stop(true), Bun.sleep(1000)]);
    }
    let code = 0;
    try {
      db.$client.close();
      source?.close?.();
    } catch (error) {
      logLine({ level: "error", msg: `closing: ${error instanceof Error ? error.message : String(error)}` });
      code = 1;
    }
    // The access-log lines of the last requests (written after their answers) must reach stdout first.
    await Bun.sleep(0);
    await accessLogOut.drain();
    await new Promise<void>((resolve) => process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level: "info", msg: code === 0 ? "stopped cleanly" : "stopped with errors", ...(worker === undefined ? {} : { worker }) })}\n`, () => resolve()));
    process.exit(code);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  if (worker !== undefined) stopWithSupervisor(() => void stop("supervisor gone"));
  return { app, server, db, source };
}

/**
 * A worker whose supervisor died (kill -9) would keep serving the port unsupervised: once its parent
 * is gone (the process is re-parented), it stops like on SIGTERM.
 */
function stopWithSupervisor(stop: () => void): void {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(watch);
      stop();
    }
  }, 1000);
  watch.unref();
}
