/**
 * Start Loam in-process on 127.0.0.1 for tests: a snapshot built once per test run from the real
 * exports in datasets, a fresh state database per server, configuration from an env map.
 */
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig, type Config } from "../../src/config";
import { openDatabase, type LoamDatabase } from "../../db/client";
import { createApp, listen } from "../../src/app";
import { buildSnapshot } from "../../src/snapshot/build";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import type { Transport } from "../../src/upstream/transport";
import type { Provider, SharedUpstreams } from "../../src/providers/provider";
import { DEFAULT_PROVIDERS, providerSettings } from "../../src/providers/registry";
import { contractFrom, type ContractChecker } from "./openapi";
import { startFakeSda, type FakeSda } from "./fake-sda";
import { SdaTransport } from "../../src/upstream/sda/client";
import { createRegistry } from "../../src/providers/registry";
import { connectProviders } from "../../src/providers/connect";
import { createUpstreamCache } from "../../src/upstream/cache";
import type { DataDeps } from "../../src/answer";

export const DATA_DIR = process.env.LOAM_DATA_DIR ?? "datasets";

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
  source: Transport;
  logs: Record<string, unknown>[];
  /** Access-log lines, parsed. */
  accessLog: Record<string, any>[];
  get(path: string, init?: RequestInit): Promise<Response>;
  json<T = any>(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: T }>;
  stop(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** The shared USDA transport; defaults to a SnapshotTransport over the test snapshot. */
  source?: Transport;
  /** The providers served (default: the app's own list). */
  providers?: readonly Provider[];
  dbPath?: string;
  now?: () => number;
}

export async function startLoam(options: StartOptions = {}): Promise<RunningLoam> {
  const dbPath = options.dbPath ?? tempDbPath();
  const config = loadConfig({ RATE_LIMIT_PER_MINUTE: "100000", LOAM_DB: dbPath, ...options.env }, undefined, providerSettings(options.providers ?? DEFAULT_PROVIDERS));
  const source = options.source ?? new SnapshotTransport(await testSnapshot());
  const upstreams: SharedUpstreams = source.kind === "sda" ? { sda: source } : { snapshot: source };
  const db = openDatabase(config.dbPath);
  const logs: Record<string, unknown>[] = [];
  const accessLog: Record<string, any>[] = [];
  const app = createApp({ config, db, upstreams, providers: options.providers, now: options.now, log: (line) => logs.push(line), writeLine: (line) => accessLog.push(JSON.parse(line)) });
  const server = listen(app, { port: 0, hostname: "127.0.0.1" });
  const base = `http://127.0.0.1:${server.port}`;
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


/**
 * One snapshot-mode Loam for a whole test file, started before its tests and stopped after, with
 * the contract checker of its served OpenAPI document. The two handles forward to the real objects
 * once `beforeAll` has run, so a file can destructure them at the top.
 */
export function useLoam(options: StartOptions = {}): { loam: RunningLoam; contract: ContractChecker } {
  let loam: RunningLoam | undefined;
  let contract: ContractChecker | undefined;
  // Building the test snapshot takes seconds on a busy machine: more than a hook's default 5 s.
  beforeAll(async () => {
    loam = await startLoam(options);
    contract = await contractFrom(loam.base);
  }, 120_000);
  afterAll(() => loam?.stop());
  return { loam: late(() => loam, "loam"), contract: late(() => contract, "contract") };
}

/**
 * The same answers two ways for a whole test file: Loam on the snapshot, and Loam in SDA mode
 * against the fake SDA (backed by the same snapshot), plus the contract checker.
 */
export function useSnapshotAndFakeSda(): { snapshot: RunningLoam; viaSda: RunningLoam; fake: FakeSda; contract: ContractChecker } {
  let snapshot: RunningLoam | undefined;
  let viaSda: RunningLoam | undefined;
  let fake: FakeSda | undefined;
  let contract: ContractChecker | undefined;
  beforeAll(async () => {
    snapshot = await startLoam();
    fake = startFakeSda({ answerer: new SnapshotTransport(await testSnapshot()) });
    viaSda = await startLoam({ source: new SdaTransport({ url: fake.url, timeoutMs: 5000 }), env: { LOAM_UPSTREAM: "sda" } });
    contract = await contractFrom(snapshot.base);
  });
  afterAll(async () => {
    await snapshot?.stop();
    await viaSda?.stop();
    fake?.close();
  });
  return {
    snapshot: late(() => snapshot, "snapshot"),
    viaSda: late(() => viaSda, "viaSda"),
    fake: late(() => fake, "fake"),
    contract: late(() => contract, "contract"),
  };
}

/** A handle that forwards to an object made later (in beforeAll), so test files can destructure it up front. */
export function late<T extends object>(get: () => T | undefined, name: string): T {
  return new Proxy({} as T, {
    get: (_, key) => {
      const target = get();
      if (!target) throw new Error(`${name} is used before beforeAll started it`);
      const value = Reflect.get(target, key);
      // Methods run on the real object (class instances keep their private state).
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * The services' dependencies without HTTP, for a whole test file (as a composite such as the OGC
 * collections calls the services): the default registry on the test snapshot, a fresh LOAM_DB cache.
 */
export function useServiceDeps(): DataDeps {
  let deps: DataDeps | undefined;
  let db: LoamDatabase | undefined;
  let snapshot: SnapshotTransport | undefined;
  beforeAll(async () => {
    const config = loadConfig({ LOAM_DB: tempDbPath() });
    db = openDatabase(config.dbPath);
    snapshot = new SnapshotTransport(await testSnapshot());
    const registry = createRegistry();
    const cache = createUpstreamCache(db, { ttlSeconds: config.cacheTtlSeconds, maxBytes: config.cacheMaxBytes });
    deps = { registry, connected: connectProviders(registry.operational, { config, upstreams: { snapshot }, cache }), cacheTtlSeconds: config.cacheTtlSeconds, now: Date.now };
  }, 120_000);
  afterAll(() => {
    db?.$client.close();
    snapshot?.close();
  });
  return late(() => deps, "deps");
}
