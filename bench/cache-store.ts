/**
 * Cached throughput of one Loam instance with its cache entries in SQLite (LOAM_DB, the default) and
 * in Redis (REDIS_URL), on loopback, with wrk (one thread, bounded in time and requests):
 *
 * - the IA073 known point, again and again: answered from the in-process memory in front of either
 *   store, so the two figures should be close (Redis only adds the rate-limit counter); once as is
 *   (146 KB) and once asking for gzip, as browsers and proxies do;
 * - 2,000 distinct points, all cached beforehand, asked in turn: more than the 500 answers the memory
 *   keeps, so every request reads its entry from the store (SQLite row or Redis string).
 *
 * A redis-server of our own is started on a free port (no persistence) and stopped afterwards; the
 * bench needs the `redis-server` binary (Debian: apt-get install -y redis-server).
 *
 * Part of `bun run bench` (bench/run.ts); alone, for a quick check:
 *   BENCH_SECONDS=3 bun bench/cache-store.ts          # prints the figures, writes nothing
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { pointsInPolygons, pointsLua } from "./workers";
import { TMP, freePort, runWrk, standaloneBench, startLoamServer, type WrkResult } from "./lib";

const KNOWN_POINT = "/v1/soil/location?latitude=41.944131&longitude=-94.359608";
const DISTINCT_POINTS = 2_000;
const WORKLOADS = ["known point", "known point, gzip", "distinct points"] as const;
type Workload = (typeof WORKLOADS)[number];

/** The wrk Lua for a workload: the fixed known point (asking for gzip or not), or the distinct points in turn. */
function workloadLua(workload: Workload, distinct: string): string {
  if (workload === "distinct points") return distinct;
  const fixed = `local fixed = ${JSON.stringify(KNOWN_POINT)}\nfunction next_path() return fixed end`;
  return workload === "known point, gzip" ? `wrk.headers["Accept-Encoding"] = "gzip"\n${fixed}` : fixed;
}

export interface CacheStoreRow {
  store: "sqlite" | "redis";
  workload: Workload;
  /** Cores of the machine (nproc) when the figure was taken. */
  cores: number;
  result: WrkResult;
}

export interface CacheStoreBenchOptions {
  snapshotPath: string;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  log: (message: string) => void;
  /** A distinct X-Forwarded-For per run (the rate limit counts every request). */
  client: (run: string) => string;
}

/** Our own redis-server: loopback, a free port, nothing persisted; `stop` kills only this process. */
async function startRedisServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const binary = Bun.which("redis-server");
  if (!binary) throw new Error("redis-server is not installed (Debian: apt-get install -y redis-server)");
  const port = freePort();
  const dir = mkdtempSync(join(tmpdir(), "loam-bench-redis-"));
  const proc: Subprocess = Bun.spawn([binary, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], { stdout: "ignore", stderr: "ignore" });
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 5000;
  for (;;) {
    const probe = Bun.spawnSync(["redis-cli", "-p", String(port), "PING"]);
    if (probe.stdout.toString().trim() === "PONG") break;
    if (proc.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server did not answer on port ${port}`);
    }
    await Bun.sleep(50);
  }
  return { url: `redis://127.0.0.1:${port}/0`, stop };
}

/** Ask every path once (16 at a time) so that each is a stored entry; each must answer 200. */
async function fill(base: string, paths: string[], client: string): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < paths.length) {
      const path = paths[next++]!;
      const response = await fetch(base + path, { headers: { "x-forwarded-for": client } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path} answered ${response.status} while filling the cache`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, lane));
}

/**
 * An answer to `path` must be a cache hit (else the figure would not be a cached one). A few tries a
 * second apart: right after the fill, a Redis command that timed out under it may still have the
 * client in its outage pause (reads are misses until it reconnects).
 */
async function expectHit(base: string, path: string, client: string): Promise<void> {
  let last = "";
  for (let attempt = 0; attempt < 5; attempt++) {
    if (attempt > 0) await Bun.sleep(1000);
    const response = await fetch(base + path, { headers: { "x-forwarded-for": client } });
    const body = (await response.json()) as { cache?: { hit?: boolean } };
    if (response.status === 200 && body.cache?.hit === true) return;
    last = `status ${response.status}, hit ${body.cache?.hit}`;
  }
  throw new Error(`${path} was not a cached answer (${last})`);
}

export async function measureCacheStores(options: CacheStoreBenchOptions): Promise<CacheStoreRow[]> {
  const cores = availableParallelism();
  const points = pointsInPolygons(options.snapshotPath, DISTINCT_POINTS);
  const paths = points.map(([lat, lon]) => `/v1/soil/location?latitude=${lat}&longitude=${lon}`);
  const lua = pointsLua(points);
  const redis = await startRedisServer();
  const rows: CacheStoreRow[] = [];
  try {
    for (const store of ["sqlite", "redis"] as const) {
      const dbPath = join(TMP, `bench-store-${store}.sqlite`);
      for (const suffix of ["", "-wal", "-shm"]) if (existsSync(dbPath + suffix)) rmSync(dbPath + suffix);
      const env: Record<string, string> = { LOAM_SNAPSHOT: options.snapshotPath, CACHE_TTL_SECONDS: "86400" };
      if (store === "redis") env.REDIS_URL = redis.url;
      const server = await startLoamServer(dbPath, { env });
      try {
        const filler = options.client(`${store}-fill`);
        await fill(server.base, [KNOWN_POINT, ...paths], filler);
        await expectHit(server.base, KNOWN_POINT, filler);
        await expectHit(server.base, paths[0]!, filler);
        for (const workload of WORKLOADS) {
          const label = `cached ${workload}, ${store} store`;
          const url = `${server.base}/`;
          const pathsLua = workloadLua(workload, lua);
          const client = options.client(`${store}-${workload}`);
          options.log(`${label}: warm-up ${options.warmupSeconds} s`);
          await runWrk(url, { label: `${label}-warmup`, connections: options.connections, durationSeconds: options.warmupSeconds, maxRequests: 2_000_000, pathsLua, client, threads: 1 });
          const result = await runWrk(url, { label, connections: options.connections, durationSeconds: options.seconds, maxRequests: 2_000_000, pathsLua, client, threads: 1 });
          options.log(`${label}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, errors ${result.errors} (${cores} cores)`);
          rows.push({ store, workload, cores, result });
        }
      } finally {
        await server.stop();
      }
    }
  } finally {
    await redis.stop();
  }
  return rows;
}

/** The RESULTS.md section for these rows. */
export function cacheStoreSection(rows: CacheStoreRow[]): string[] {
  const lines = ["## Cached answers: SQLite store vs Redis store (one instance)", ""];
  lines.push(
    `One Loam process, cache filled beforehand; \`known point\`: the IA073 point again and again (answered from the in-process memory in front of the store; 146 KB, or gzip when asked); \`distinct points\`: ${DISTINCT_POINTS.toLocaleString("en")} cached points in turn, more than the memory keeps, so each request reads the store. wrk with one thread (bench/cache-store.ts).`,
    "",
  );
  lines.push("| store | workload | cores (nproc) | conns | requests | req/s | p50 ms | p99 ms | notes |", "|---|---|---:|---:|---:|---:|---:|---:|---|");
  for (const row of rows) {
    const r = row.result;
    lines.push(`| ${row.store} | ${row.workload} | ${row.cores} | ${r.connections} | ${r.requests} | ${r.rps.toFixed(0)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.errors ? `${r.errors} errors` : ""} |`);
  }
  return lines;
}

if (import.meta.main) {
  let runs = 0;
  const rows = await measureCacheStores({ ...standaloneBench(), client: () => `198.18.210.${++runs}` });
  console.log(cacheStoreSection(rows).join("\n"));
}
