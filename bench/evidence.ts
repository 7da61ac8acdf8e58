/**
 * GET /v1/soil/evidence from the snapshot, cold (issue 46): every source asked at once, uncached. In-process,
 * as bench/geochem.ts: the whole app answers `app.handle(request)` with CACHE_TTL_SECONDS=0, so every
 * request reads every source again (the survey's point and map unit, the model's clips, the lab box and
 * the nearest pedon's layers, the sites and their results, the stations, the series descriptions). The
 * two worked examples of docs/api.md, interleaved request by request: IA073 (survey, components and
 * their series, sites) and station 2092 Abrams (pedon 04N0873 and its layers, the station, sites); each
 * request's point moves by a few centimetres so no two in a row are the same query. 10 warm-up and 100
 * measured rounds. Beside the wall clock: this process's CPU time per request (getrusage, what
 * /proc/self/stat counts), which other processes on a shared machine do not inflate.
 *
 * Usage: bun bench/evidence.ts   (rebuilds data/snapshot.sqlite when its layout is older)
 */
import { timedRequest, uncachedLoam } from "./in-process";

const { app, close } = uncachedLoam("evidence");
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

const POINTS: [string, number, number][] = [
  ["IA073 (41.944131, -94.359608)", 41.944131, -94.359608],
  ["2092 Abrams (37.1313, -97.0859)", 37.1313, -97.0859],
];
const path = (p: number, i: number) =>
  `/v1/soil/evidence?latitude=${(POINTS[p]![1] + i * 1e-7).toFixed(7)}&longitude=${POINTS[p]![2].toFixed(6)}&properties=clay,ph,organic_matter,arsenic&depth_bottom_cm=100`;

// Every measured answer must be a miss, with every source present.
for (let p = 0; p < POINTS.length; p++) {
  const body = (await (await app.handle(new Request(`http://127.0.0.1${path(p, 0)}`))).json()) as { cache: { hit: boolean }; sources: Record<string, unknown> };
  if (body.cache.hit) throw new Error("answered from the cache; CACHE_TTL_SECONDS=0 should store nothing");
  console.log(`${POINTS[p]![0]}: sources ${Object.keys(body.sources).join(", ")}`);
}

console.log(`load average ${(await Bun.file("/proc/loadavg").text().catch(() => "?")).split(" ").slice(0, 3).join(" ")} on ${navigator.hardwareConcurrency} cores`);
for (let i = 0; i < 10; i++) for (let p = 0; p < POINTS.length; p++) await timedRequest(app, path(p, i));
const times: number[][] = POINTS.map(() => []);
const cpu: number[] = POINTS.map(() => 0);
for (let i = 10; i < 110; i++) {
  for (let p = 0; p < POINTS.length; p++) {
    const before = process.cpuUsage();
    times[p]!.push(await timedRequest(app, path(p, i)));
    const used = process.cpuUsage(before);
    cpu[p]! += (used.user + used.system) / 1000;
  }
}
console.log(`| point (cold, every source) | p50 ms | p95 ms | max ms | CPU ms per request | requests |\n|---|---|---|---|---|---|`);
for (let p = 0; p < POINTS.length; p++) {
  const sorted = [...times[p]!].sort((a, b) => a - b);
  console.log(`| ${POINTS[p]![0]} | ${quantile(sorted, 0.5).toFixed(2)} | ${quantile(sorted, 0.95).toFixed(2)} | ${sorted[sorted.length - 1]!.toFixed(2)} | ${(cpu[p]! / sorted.length).toFixed(2)} | ${sorted.length} |`);
}
close();
process.exit(0);
