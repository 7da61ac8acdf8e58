/**
 * The decode path of the snapshot's tabular answers, uncached (docs/decisions.md#decode-once): one
 * point (GET /v1/soil/location), one pedon (GET /v1/pedons/{key}) and one map-unit box, each answered
 * from the snapshot on every request (CACHE_TTL_SECONDS=0), in-process as bench/areas.ts. Reports
 * wall-clock quantiles and the process's CPU time per request (user + system over the measured
 * requests, run one at a time).
 *
 * Usage: bun bench/cold-rows.ts   (builds data/snapshot.sqlite from ../shared/data when missing)
 */
import { timedRequest, uncachedLoam } from "./in-process";

const { app, close } = uncachedLoam("cold-rows");

const PATHS = [
  ["point IA073 (location, default properties)", "/v1/soil/location?latitude=41.944131&longitude=-94.359608"],
  ["point IA073 (location, eight properties)", "/v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=ph,organic_matter,sand,silt,clay,bulk_density,cec,ksat"],
  ["pedon 02N0245 (eight properties)", "/v1/pedons/02N0245?properties=ph,clay,cec,organic_carbon,sand,silt,bulk_density,total_nitrogen"],
  ["map unit 2765528", "/v1/soil/mapunits/2765528"],
] as const;

const WARMUP = 50;
const MEASURED = 500;
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

for (const [name, path] of PATHS) {
  const body = (await (await app.handle(new Request(`http://127.0.0.1${path}`))).json()) as { cache?: { hit: boolean } };
  if (body.cache?.hit) throw new Error(`${name} was answered from the cache; CACHE_TTL_SECONDS=0 should store nothing`);
}
console.log(`| scenario | min ms | p50 ms | p95 ms | CPU ms / request | requests |\n|---|---|---|---|---|---|`);
for (const [name, path] of PATHS) {
  for (let i = 0; i < WARMUP; i++) await timedRequest(app, path);
  const times: number[] = [];
  const before = process.cpuUsage();
  for (let i = 0; i < MEASURED; i++) times.push(await timedRequest(app, path));
  const used = process.cpuUsage(before);
  times.sort((a, b) => a - b);
  console.log(`| ${name} | ${times[0]!.toFixed(3)} | ${quantile(times, 0.5).toFixed(3)} | ${quantile(times, 0.95).toFixed(3)} | ${((used.user + used.system) / 1000 / MEASURED).toFixed(3)} | ${MEASURED} |`);
}
close();
process.exit(0);
