/**
 * Areas and many points from the snapshot, uncached (targets: the IA073 AOI report p50 under 20 ms;
 * 100 points p50 under 100 ms). In-process, as bench/summary.ts: the whole app answers
 * `app.handle(request)` with CACHE_TTL_SECONDS=0, so every request reads the snapshot again (the
 * polygons are cut and measured, the map units loaded and summarized, each time). Short and bounded:
 * 20 warm-up and 200 measured requests per path.
 *
 * Wall-clock quantiles on a shared machine measure the neighbours as much as Loam, so each scenario
 * also reports the process's CPU time per request (user + system, process.cpuUsage over the measured
 * requests, which run one at a time), and the least disturbed request (min).
 *
 * Usage: bun bench/areas.ts   (builds data/snapshot.sqlite from datasets when missing)
 */
import { timedRequest, uncachedLoam } from "./in-process";

const { app, close } = uncachedLoam("areas");

// The IA073 export's AOI boundary (spatial/aoi_a_aoi.shp, as WKT): 13 map-unit polygons of 5 map units.
const IA073_AOI =
  "POLYGON ((-94.361846351032 41.9431577450493, -94.361846351032 41.9457877194289, -94.3581980672759 41.9457877194289, -94.3581980672759 41.9431577450493, -94.361846351032 41.9431577450493))";

// 100 points: a 10 x 10 grid over the IA073 AOI (5 map units, so the map units are loaded once each).
const grid: string[] = [];
for (let i = 0; i < 10; i++) for (let j = 0; j < 10; j++) grid.push(`${(41.9432 + i * 0.00026).toFixed(6)},${(-94.3618 + j * 0.00036).toFixed(6)}`);

const PATHS = [
  ["IA073 AOI report, clay 0-30 cm", `/v1/soil/aoi?polygon=${encodeURIComponent(IA073_AOI)}&properties=clay&depth_bottom_cm=30`, 20],
  ["IA073 AOI report, default five properties", `/v1/soil/aoi?polygon=${encodeURIComponent(IA073_AOI)}`, 20],
  ["100 points (IA073 grid), clay 0-30 cm", `/v1/soil/points?points=${grid.join(";")}&properties=clay&depth_bottom_cm=30`, 100],
  // The yardstick, measured in the same run: one point summary (README: 0.35 ms p50 on an idle machine, target 5 ms).
  // On a busy shared machine every figure grows; the ratio to this one says what an idle run would show.
  ["one point summary (yardstick)", "/v1/soil/summary?latitude=41.944131&longitude=-94.359608&properties=clay&depth_bottom_cm=30", 5],
] as const;

const WARMUP = 20;
const MEASURED = 200;

const once = (path: string) => timedRequest(app, path);

// Every measured answer must be a miss: the snapshot was read for it (cache.hit false).
for (const [name, path] of PATHS) {
  const body = (await (await app.handle(new Request(`http://127.0.0.1${path}`))).json()) as { cache: { hit: boolean } };
  if (body.cache.hit) throw new Error(`${name} was answered from the cache; CACHE_TTL_SECONDS=0 should store nothing`);
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

const rows: { name: string; min: number; p50: number; p95: number; p99: number; cpu: number; target: number }[] = [];
for (const [name, path, target] of PATHS) {
  for (let i = 0; i < WARMUP; i++) await once(path);
  const times: number[] = [];
  const before = process.cpuUsage();
  for (let i = 0; i < MEASURED; i++) times.push(await once(path));
  const used = process.cpuUsage(before);
  times.sort((a, b) => a - b);
  rows.push({ name, min: times[0]!, p50: quantile(times, 0.5), p95: quantile(times, 0.95), p99: quantile(times, 0.99), cpu: (used.user + used.system) / 1000 / MEASURED, target });
}
const yardstick = rows[rows.length - 1]!.p50;
console.log(`| scenario | min ms | p50 ms | p95 ms | p99 ms | CPU ms / request | target p50 ms | p50 / point summary p50 | requests |\n|---|---|---|---|---|---|---|---|---|`);
for (const r of rows) {
  console.log(`| ${r.name} | ${r.min.toFixed(2)} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.cpu.toFixed(2)} | ${r.target} | ${(r.p50 / yardstick).toFixed(1)} | ${MEASURED} |`);
}
close();
process.exit(0);
