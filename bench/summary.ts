/**
 * The uncached summary of one map unit from the snapshot (target: p50 under 5 ms). In-process: the
 * whole app (boundary, routing, strict query reading, provider query on the snapshot, decoding,
 * aggregation, response pipeline) answers `app.handle(request)` with CACHE_TTL_SECONDS=0, so every
 * request reads the snapshot again. Short and bounded: 50 warm-up and 500 measured requests per path.
 *
 * Usage: bun bench/summary.ts   (builds data/snapshot.sqlite from datasets when missing)
 */
import { timedRequest, uncachedLoam } from "./in-process";

const { app, close } = uncachedLoam("summary");

const PATHS = [
  // IA073 L138B Clarion: 3 components, 17 horizons; the point query's five default properties.
  "/v1/soil/mapunits/2765528?properties=ph,organic_matter,sand,silt,clay",
  // The same map unit, every kind of property at once (8).
  "/v1/soil/mapunits/2765528?properties=clay,aws,awc,ksat,drainage_class,hydrologic_group,texture_class,slope&depth_bottom_cm=100",
  // The point form: the point query (R-tree + ring test) and then the map unit.
  "/v1/soil/summary?latitude=41.944131&longitude=-94.359608&properties=clay&depth_bottom_cm=30",
];

const WARMUP = 50;
const MEASURED = 500;

const once = (path: string) => timedRequest(app, path);

// Every measured answer must be a miss: the snapshot was read for it (cache.hit false).
for (const path of PATHS) {
  const body = (await (await app.handle(new Request(`http://127.0.0.1${path}`))).json()) as { cache: { hit: boolean } };
  if (body.cache.hit) throw new Error(`${path} was answered from the cache; CACHE_TTL_SECONDS=0 should store nothing`);
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

console.log(`| path | p50 ms | p95 ms | p99 ms | requests |\n|---|---|---|---|---|`);
for (const path of PATHS) {
  for (let i = 0; i < WARMUP; i++) await once(path);
  const times: number[] = [];
  for (let i = 0; i < MEASURED; i++) times.push(await once(path));
  times.sort((a, b) => a - b);
  console.log(`| \`${path}\` | ${quantile(times, 0.5).toFixed(2)} | ${quantile(times, 0.95).toFixed(2)} | ${quantile(times, 0.99).toFixed(2)} | ${MEASURED} |`);
}
close();
process.exit(0);
