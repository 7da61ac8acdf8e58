/**
 * Start Loam in-process on 127.0.0.1 for tests: a snapshot built once per test run from the real
 * exports in ../shared/data, a fresh state database per server, configuration from an env map.
 */
import { mkdtempSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig, type Config } from "../../src/config";
import { openDatabase, type LoamDatabase } from "../../db/client";
import { createApp } from "../../src/app";
import { buildSnapshot } from "../../src/snapshot/build";
import { SnapshotSource } from "../../src/upstream/snapshot-source";
import type { UpstreamSource } from "../../src/upstream/source";

export const DATA_DIR = process.env.LOAM_DATA_DIR ?? "../shared/data";

let snapshot: Promise<string> | undefined;

/** The test snapshot, built once per process from the real exports. */
export function testSnapshot(): Promise<string> {
  snapshot ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), "loam-test-snapshot-"));
    const outPath = join(dir, "snapshot.sqlite");
    await buildSnapshot({ dataDir: DATA_DIR, outPath });
    return outPath;
  })();
  return snapshot;
}

export function tempDbPath(): string {
  return join(mkdtempSync(join(tmpdir(), "loam-test-db-")), "loam.sqlite");
}

export interface RunningLoam {
  base: string;
  config: Config;
  db: LoamDatabase;
  source: UpstreamSource;
  logs: Record<string, unknown>[];
  /** Access-log lines, parsed. */
  accessLog: Record<string, any>[];
  get(path: string, init?: RequestInit): Promise<Response>;
  json<T = any>(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: T }>;
  stop(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Defaults to a SnapshotSource over the test snapshot. */
  source?: UpstreamSource;
  dbPath?: string;
  now?: () => number;
}

export async function startLoam(options: StartOptions = {}): Promise<RunningLoam> {
  const dbPath = options.dbPath ?? tempDbPath();
  const config = loadConfig({ RATE_LIMIT_PER_MINUTE: "100000", LOAM_DB: dbPath, ...options.env });
  const source = options.source ?? new SnapshotSource(await testSnapshot());
  const db = openDatabase(config.dbPath);
  const logs: Record<string, unknown>[] = [];
  const accessLog: Record<string, any>[] = [];
  const app = createApp({ config, db, source, now: options.now, log: (line) => logs.push(line), writeLine: (line) => accessLog.push(JSON.parse(line)) });
  app.listen({ port: 0, hostname: "127.0.0.1" });
  const base = `http://127.0.0.1:${app.server!.port}`;
  const get = (path: string, init?: RequestInit) => fetch(base + path, init);
  return {
    base,
    config,
    db,
    source,
    logs,
    accessLog,
    get,
    async json(path, init) {
      const response = await get(path, init);
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
    },
    async stop() {
      await app.stop(true);
      db.$client.close();
    },
  };
}

export function snapshotExists(path: string): boolean {
  return existsSync(path);
}
