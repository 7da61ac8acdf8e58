/**
 * Station series from the snapshot, uncached (targets, issue #36: a year of hourly values, 8,760 rows,
 * under 50 ms cold). In-process, as bench/geochem.ts: the whole app answers `app.handle(request)` with
 * CACHE_TTL_SECONDS=0, so every request reads the snapshot again; the years and stations cycle so no two
 * measured requests in a row ask the same series. Short and bounded: 10 warm-up and 60 measured
 * requests per scenario. The cached figures (against a bare Bun.serve) are bench/hot-path.ts's
 * `stations` and `series` routes: BENCH_ROUTES=stations,series bun bench/hot-path.ts
 *
 * Usage: bun bench/stations.ts   (rebuilds data/snapshot.sqlite when its layout is older)
 */
import { timedRequest, uncachedLoam } from "./in-process";

const { app, close } = uncachedLoam("stations");

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const STATIONS = ["2092:KS:SCAN", "2015:NM:SCAN"];
const YEARS = [2007, 2008, 2009, 2010, 2011, 2012, 2013];
const year = (i: number) => `/v1/stations/${STATIONS[i % 2]}/series?element=soil_moisture&depth_cm=5.08&start=${YEARS[i % 7]}-01-01&end=${YEARS[i % 7]}-12-31`;

/** [label, path of the i-th request, target p50 ms] */
const SCENARIOS: [string, (i: number) => string, number | null][] = [
  ["a year of hourly values (2092 or 2015, 2007-2013 in turn)", year, 50],
  ["the same as CSV", (i) => `${year(i)}&format=csv`, null],
  ["seven years of daily means", (i) => `/v1/stations/${STATIONS[i % 2]}/series?element=soil_moisture&depth_cm=5.08&interval=daily&start=2007-01-01&end=2013-12-31`, null],
  ["stations in a box (conterminous US, 100 per page)", () => "/v1/stations?bbox=-125,24,-66,50&limit=100", null],
];

// Every measured answer must be a miss, and a year must be its 8,760-odd rows.
const first = (await (await app.handle(new Request(`http://127.0.0.1${year(3)}`))).json()) as { cache: { hit: boolean }; values: unknown[] };
if (first.cache.hit) throw new Error("answered from the cache; CACHE_TTL_SECONDS=0 should store nothing");
console.log(`a year of 2092 (2010): ${first.values.length} hourly values`);
console.log(`load average ${(await Bun.file("/proc/loadavg").text().catch(() => "?")).split(" ").slice(0, 3).join(" ")} on ${navigator.hardwareConcurrency} cores`);
console.log(`| scenario | p50 ms | p95 ms | max ms | CPU ms per request | requests | target p50 |\n|---|---|---|---|---|---|---|`);
for (const [label, path, target] of SCENARIOS) {
  for (let i = 0; i < 10; i++) await timedRequest(app, path(i));
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < 60; i++) times.push(await timedRequest(app, path(i + 10)));
  const used = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  const p50 = quantile(times, 0.5);
  const verdict = target === null ? "-" : `< ${target} ms ${p50 < target ? "(met)" : "(MISSED)"}`;
  console.log(`| ${label} | ${p50.toFixed(2)} | ${quantile(times, 0.95).toFixed(2)} | ${times.at(-1)!.toFixed(2)} | ${((used.user + used.system) / 1000 / 60).toFixed(2)} | 60 | ${verdict} |`);
}
close();
process.exit(0);
