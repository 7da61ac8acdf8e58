/**
 * Uncached distinct points per second with LOAM_WORKERS=1 and LOAM_WORKERS=2: one JavaScript thread
 * per process, so a second worker should use the second core. Every request is a different point
 * inside one of the snapshot's map-unit polygons (not only its bounding box), with the cache off
 * (CACHE_TTL_SECONDS=0), so each one runs the polygon lookup and the normalization. wrk runs with one
 * thread so that it takes as little of the machine from the servers as it can.
 *
 * Part of `bun run bench` (bench/run.ts); alone, for a quick check:
 *   BENCH_SECONDS=3 bun bench/workers.ts          # prints the figures, writes nothing
 */
import { Database } from "bun:sqlite";
import { existsSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { pointInEncodedRings } from "../src/upstream/snapshot-geometry";
import { TMP, runWrk, standaloneBench, startLoamServer, type WrkResult } from "./lib";

export interface WorkersRow {
  workers: number;
  /** Cores of the machine (nproc) when the figure was taken. */
  cores: number;
  result: WrkResult;
  /** Share of sampled points answered with a map unit (should be all of them). */
  mapped: number;
}

/** mulberry32: deterministic, so every run asks the same points. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * `count` distinct points, each inside a map-unit polygon of the snapshot: the polygons are taken in
 * turn, a point drawn in the polygon's box is kept only when it falls inside its rings (a polygon
 * that rejects many draws is skipped for this round).
 */
export function pointsInPolygons(snapshotPath: string, count: number): Array<[lat: string, lon: string]> {
  const db = new Database(snapshotPath, { readonly: true });
  const polygons = db.query<{ min_x: number; max_x: number; min_y: number; max_y: number; rings: Uint8Array }, []>("SELECT min_x, max_x, min_y, max_y, rings FROM mupolygon ORDER BY id").all();
  db.close();
  if (polygons.length === 0) throw new Error(`no map-unit polygons in ${snapshotPath}`);
  const random = seeded(20_261_123);
  const seen = new Set<string>();
  const points: Array<[string, string]> = [];
  for (let round = 0; points.length < count && round < count; round++) {
    for (const polygon of polygons) {
      if (points.length >= count) break;
      for (let attempt = 0; attempt < 20; attempt++) {
        const lon = polygon.min_x + random() * (polygon.max_x - polygon.min_x);
        const lat = polygon.min_y + random() * (polygon.max_y - polygon.min_y);
        const key = `${lat.toFixed(6)},${lon.toFixed(6)}`;
        // The rounded point is the one asked: test that one.
        if (seen.has(key) || !pointInEncodedRings(polygon.rings, Number(lon.toFixed(6)), Number(lat.toFixed(6)))) continue;
        seen.add(key);
        points.push([lat.toFixed(6), lon.toFixed(6)]);
        break;
      }
    }
  }
  return points;
}

/** Lua cycling through the points (wrk runs one thread here, so one offset). */
export function pointsLua(points: Array<[string, string]>): string {
  const rows = points.map(([lat, lon]) => `"/v1/soil/location?latitude=${lat}&longitude=${lon}"`);
  return `local paths = {\n${rows.join(",\n")}\n}
local i = 0
function next_path()
  i = i + 1
  return paths[((i - 1) % #paths) + 1]
end`;
}

export interface WorkersBenchOptions {
  snapshotPath: string;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  log: (message: string) => void;
  /** A distinct X-Forwarded-For per run (the rate limit counts every request). */
  client: (run: number) => string;
}

/** Wait until each of `workers` answers /metrics on some connection (the kernel spreads new connections). */
async function allWorkersUp(base: string, workers: number): Promise<void> {
  if (workers === 1) return;
  const seen = new Set<string>();
  for (let i = 0; i < 500 && seen.size < workers; i++) {
    const text = await (await fetch(`${base}/metrics`, { headers: { connection: "close" } })).text();
    const label = /^loam_build_info\{worker="(\d+)"/m.exec(text)?.[1];
    if (label) seen.add(label);
    else await Bun.sleep(20);
  }
  if (seen.size < workers) throw new Error(`only ${seen.size} of ${workers} workers answered`);
}

export async function measureWorkers(options: WorkersBenchOptions): Promise<WorkersRow[]> {
  const points = pointsInPolygons(options.snapshotPath, 50_000);
  const sample = points.slice(-200);
  const lua = pointsLua(points.slice(0, -200));
  const cores = availableParallelism();
  const rows: WorkersRow[] = [];
  for (const workers of [1, 2]) {
    const dbPath = join(TMP, `bench-workers-${workers}.sqlite`);
    for (const suffix of ["", "-wal", "-shm"]) if (existsSync(dbPath + suffix)) rmSync(dbPath + suffix);
    const server = await startLoamServer(dbPath, { env: { LOAM_WORKERS: String(workers), CACHE_TTL_SECONDS: "0", LOAM_SNAPSHOT: options.snapshotPath } });
    try {
      await allWorkersUp(server.base, workers);
      let mapped = 0;
      for (const [lat, lon] of sample) {
        const response = await fetch(`${server.base}/v1/soil/location?latitude=${lat}&longitude=${lon}`);
        const body = await response.json();
        if (response.status !== 200 || body.cache?.hit !== false) throw new Error(`uncached point answered ${response.status}, hit ${body.cache?.hit}`);
        if (body.map_units.length > 0) mapped++;
      }
      const label = `uncached points, ${workers} worker${workers === 1 ? "" : "s"}`;
      const client = options.client(workers);
      options.log(`${label}: warm-up ${options.warmupSeconds} s`);
      await runWrk(server.base + "/", { label: `${label}-warmup`, connections: options.connections, durationSeconds: options.warmupSeconds, maxRequests: 2_000_000, pathsLua: lua, client });
      const result = await runWrk(server.base + "/", { label, connections: options.connections, durationSeconds: options.seconds, maxRequests: 2_000_000, pathsLua: lua, client, threads: 1 });
      options.log(`${label}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, errors ${result.errors} (${cores} cores)`);
      rows.push({ workers, cores, result, mapped: mapped / sample.length });
    } finally {
      await server.stop();
    }
  }
  return rows;
}

/** The RESULTS.md section for these rows. */
export function workersSection(rows: WorkersRow[]): string[] {
  const lines = ["## Uncached distinct points: 1 worker vs 2 workers", ""];
  lines.push("Every request a different point inside a map-unit polygon of the snapshot, `CACHE_TTL_SECONDS=0`, wrk with one thread (bench/workers.ts).", "");
  lines.push("| LOAM_WORKERS | cores (nproc) | conns | requests | req/s | p50 ms | p99 ms | points in a map unit | notes |", "|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  for (const row of rows) {
    const r = row.result;
    lines.push(`| ${row.workers} | ${row.cores} | ${r.connections} | ${r.requests} | ${r.rps.toFixed(0)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${Math.round(row.mapped * 100)} % | ${r.errors ? `${r.errors} errors` : ""} |`);
  }
  const [one, two] = rows;
  if (one && two) {
    const ratio = two.result.rps / one.result.rps;
    lines.push("", `2 workers serve **${ratio.toFixed(2)}x** the throughput of 1 worker on ${two.cores} cores (target on a 2-core machine: at least 1.4x: ${ratio >= 1.4 ? "**met**" : "**missed**"}).`);
  }
  return lines;
}

if (import.meta.main) {
  const rows = await measureWorkers({ ...standaloneBench(), client: (run) => `198.18.200.${run}` });
  console.log(workersSection(rows).join("\n"));
}
