/**
 * Geochemistry answers from the snapshot, uncached (targets, issue #24: one site with all 44 elements
 * p50 under 2 ms; a page of 1,000 sites under 20 ms). In-process: the whole app (boundary, routing,
 * strict query reading, the provider's snapshot reader, decoding, the answer and the response
 * pipeline) answers `app.handle(request)` with CACHE_TTL_SECONDS=0, so every request reads the
 * snapshot again. Site answers cycle through 500 real SiteIDs, so no two measured requests in a row
 * ask the same site. Short and bounded: 50 warm-up and 500 measured requests (100 for the pages).
 * Beside the wall-clock quantiles it prints the process CPU time per request: on a shared machine
 * the wall clock also counts the time other processes held the CPU, the CPU time does not.
 *
 * Usage: bun bench/geochem.ts   (builds data/snapshot.sqlite from datasets when missing)
 */
import { Database } from "bun:sqlite";
import { SNAPSHOT, timedRequest, uncachedLoam } from "./in-process";

const { app, close } = uncachedLoam("geochem");

const snapshot = new Database(SNAPSHOT, { readonly: true });
let siteIds: number[];
try {
  siteIds = snapshot.query<{ site_id: number }, []>("SELECT site_id FROM usgs_geochem_site ORDER BY site_id").all().map((r) => r.site_id);
} catch {
  throw new Error("data/snapshot.sqlite holds no geochemistry sites: rebuild it with 'bun run snapshot:build'");
} finally {
  snapshot.close();
}
const sample = siteIds.filter((_, i) => i % Math.ceil(siteIds.length / 500) === 0);

const once = (path: string) => timedRequest(app, path);

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** [label, path of the i-th request, measured requests, target ms] */
const SCENARIOS: [string, (i: number) => string, number, number][] = [
  ["one site, all 44 elements (500 sites in turn)", (i) => `/v1/geochem/sites/${sample[i % sample.length]}`, 500, 2],
  ["one site as CSV, all 44 elements", (i) => `/v1/geochem/sites/${sample[i % sample.length]}?format=csv`, 500, 2],
  ["page of 1,000 sites (whole range, first page)", () => `/v1/geochem/sites?limit=1000`, 100, 20],
  ["page of 1,000 sites with property=arsenic", () => `/v1/geochem/sites?limit=1000&property=arsenic`, 100, 20],
  ["5 nearest sites of a point", (i) => `/v1/geochem/sites?near=${(30 + (i % 17)).toFixed(1)},${(-120 + (i % 40)).toFixed(1)}&limit=5`, 500, 2],
];

// Every measured answer must be a miss: the snapshot was read for it (cache.hit false).
for (const [, path] of SCENARIOS) {
  const body = (await (await app.handle(new Request(`http://127.0.0.1${path(0).replace("?format=csv", "")}`))).json()) as { cache: { hit: boolean } };
  if (body.cache.hit) throw new Error(`${path(0)} was answered from the cache; CACHE_TTL_SECONDS=0 should store nothing`);
}

console.log(`load average ${(await Bun.file("/proc/loadavg").text().catch(() => "?")).split(" ").slice(0, 3).join(" ")} on ${navigator.hardwareConcurrency} cores`);
console.log(`| scenario | p50 ms | p95 ms | p99 ms | CPU ms per request | requests | target p50 |\n|---|---|---|---|---|---|---|`);
for (const [label, path, measured, target] of SCENARIOS) {
  for (let i = 0; i < 50; i++) await once(path(i));
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < measured; i++) times.push(await once(path(i + 50)));
  const used = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  const p50 = quantile(times, 0.5);
  const cpuMs = (used.user + used.system) / 1000 / measured;
  console.log(`| ${label} | ${p50.toFixed(2)} | ${quantile(times, 0.95).toFixed(2)} | ${quantile(times, 0.99).toFixed(2)} | ${cpuMs.toFixed(2)} | ${measured} | < ${target} ms ${p50 < target ? "(met)" : "(MISSED)"} |`);
}
close();
process.exit(0);
