/**
 * Offline modeled values, uncached (issue #35's target: a cold lookup under 5 ms). In-process: the whole
 * app (boundary, routing, strict query reading, the point_values shape, the snapshot's clip reader,
 * decoding and reading the SoilGrids answer, the response pipeline) answers `app.handle(request)` with
 * CACHE_TTL_SECONDS=0, so every request reads the clips again. 200 distinct points inside the clips
 * (a 20 x 10 lattice over the README's known point's surroundings, each with a value), after 50
 * warm-up requests at other points; method=none and method=weighted_average. Prints p50/p95/p99 and
 * the process CPU time per request (on a shared machine the wall clock also counts other processes).
 *
 * Usage: bun bench/modeled.ts   (builds data/snapshot.sqlite from datasets when missing)
 */
import { timedRequest, uncachedLoam } from "./in-process";

const { app, close } = uncachedLoam("modeled");

/** The i-th point of a lattice inside the clips (lon -71.79..-71.60, lat 18.62..18.68), never the same twice in 200. */
const point = (i: number, offset = 0) => {
  const n = i + offset;
  return `latitude=${(18.62 + (n % 10) * 0.006 + 0.0013).toFixed(5)}&longitude=${(-71.79 + Math.floor(n / 10) * 0.0095 + 0.0011).toFixed(5)}`;
};

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

const SCENARIOS: [string, (i: number) => string][] = [
  ["clay, silt at 0-15 cm (4 observations)", (i) => `/v1/soil/modeled?${point(i)}&properties=clay,silt&depth_bottom_cm=15`],
  ["the default properties, 0-200 cm", (i) => `/v1/soil/modeled?${point(i)}`],
  ["clay, silt, method=weighted_average 0-15 cm", (i) => `/v1/soil/modeled?${point(i)}&properties=clay,silt&depth_bottom_cm=15&method=weighted_average`],
];

// Every measured answer must be a miss with observations: the clips were read for it.
for (let i = 0; i < 200; i++) {
  const body = (await (await app.handle(new Request(`http://127.0.0.1${SCENARIOS[0]![1](i)}`))).json()) as { cache: { hit: boolean }; observations: unknown[] };
  if (body.cache.hit) throw new Error("answered from the cache; CACHE_TTL_SECONDS=0 should store nothing");
  if (body.observations.length !== 4) throw new Error(`point ${point(i)} has ${body.observations.length} observations, not 4: outside the clips or NoData`);
}

console.log(`load average ${(await Bun.file("/proc/loadavg").text().catch(() => "?")).split(" ").slice(0, 3).join(" ")} on ${navigator.hardwareConcurrency} cores`);
console.log(`| scenario | p50 ms | p95 ms | p99 ms | CPU ms per request | requests | target |\n|---|---|---|---|---|---|---|`);
for (const [label, path] of SCENARIOS) {
  for (let i = 0; i < 50; i++) await timedRequest(app, path(i).replace(/latitude=[^&]+/, `latitude=${(18.66 + i * 0.0001).toFixed(5)}`));
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < 200; i++) times.push(await timedRequest(app, path(i)));
  const used = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  const p99 = quantile(times, 0.99);
  const cpuMs = (used.user + used.system) / 1000 / 200;
  console.log(`| ${label} | ${quantile(times, 0.5).toFixed(2)} | ${quantile(times, 0.95).toFixed(2)} | ${p99.toFixed(2)} | ${cpuMs.toFixed(2)} | 200 | < 5 ms ${p99 < 5 ? "(met at p99)" : quantile(times, 0.5) < 5 ? "(met at p50)" : "(MISSED)"} |`);
}
close();
process.exit(0);
