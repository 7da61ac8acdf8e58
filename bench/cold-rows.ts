/**
 * The decode path of the snapshot's tabular answers, uncached (docs/decisions.md#decode-once): one
 * point (GET /v1/soil/location), one pedon (GET /v1/pedons/{key}) and one map unit, each answered
 * from the snapshot on every request (CACHE_TTL_SECONDS=0), in-process as bench/areas.ts. Reports
 * wall-clock quantiles and the process's CPU time per request (user + system over the measured
 * requests, run one at a time).
 *
 * With BENCH_BASELINE=<another checkout> (e.g. the main checkout at an earlier commit, its
 * node_modules installed), that checkout's app runs in the same process over the same snapshot
 * file, and the two take turns in rounds (a shared machine drifts within minutes, so figures taken
 * one after the other cannot be compared); medians over the rounds are reported for both.
 *
 * Usage: bun bench/cold-rows.ts   (builds data/snapshot.sqlite from datasets when missing)
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SNAPSHOT, timedRequest, uncachedLoam } from "./in-process";

type App = { handle(request: Request): Promise<Response> };

const PATHS = [
  ["point IA073 (location, default properties)", "/v1/soil/location?latitude=41.944131&longitude=-94.359608"],
  ["point IA073 (location, eight properties)", "/v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=ph,organic_matter,sand,silt,clay,bulk_density,cec,ksat"],
  ["pedon 02N0245 (eight properties)", "/v1/pedons/02N0245?properties=ph,clay,cec,organic_carbon,sand,silt,bulk_density,total_nitrogen"],
  ["map unit 2765528", "/v1/soil/mapunits/2765528"],
] as const;

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PER_ROUND = 100;
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const median = (values: number[]) => quantile([...values].sort((a, b) => a - b), 0.5);

/** The app of another checkout, uncached, over this checkout's snapshot file. */
async function baselineApp(dir: string): Promise<App> {
  const root = resolve(dir);
  const { loadConfig } = await import(join(root, "src/config.ts"));
  const { openDatabase } = await import(join(root, "db/client.ts"));
  const { createApp } = await import(join(root, "src/app.ts"));
  const { SnapshotTransport } = await import(join(root, "src/upstream/snapshot.ts"));
  const config = loadConfig({ CACHE_TTL_SECONDS: "0", RATE_LIMIT_PER_MINUTE: "1000000", LOAM_DB: join(mkdtempSync(join(tmpdir(), "loam-bench-baseline-")), "loam.sqlite"), LOG_LEVEL: "error" });
  return createApp({ config, db: openDatabase(config.dbPath), upstreams: { snapshot: new SnapshotTransport(SNAPSHOT) }, writeLine: () => {} });
}

const apps: [string, App][] = [["this checkout", uncachedLoam("cold-rows").app]];
if (process.env.BENCH_BASELINE) apps.push([`baseline ${process.env.BENCH_BASELINE}`, await baselineApp(process.env.BENCH_BASELINE)]);

for (const [, app] of apps) {
  for (const [name, path] of PATHS) {
    const body = (await (await app.handle(new Request(`http://127.0.0.1${path}`))).json()) as { cache?: { hit: boolean } };
    if (body.cache?.hit) throw new Error(`${name} was answered from the cache; CACHE_TTL_SECONDS=0 should store nothing`);
    for (let i = 0; i < 50; i++) await timedRequest(app as never, path);
  }
}

// Per app and path: each round's p50 wall time and CPU per request; apps take turns, in alternating order.
const results = new Map<string, { p50: number[]; cpu: number[]; min: number }>();
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? apps : [...apps].reverse();
  for (const [name, path] of PATHS) {
    for (const [label, app] of order) {
      const times: number[] = [];
      const before = process.cpuUsage();
      for (let i = 0; i < PER_ROUND; i++) times.push(await timedRequest(app as never, path));
      const used = process.cpuUsage(before);
      times.sort((a, b) => a - b);
      const entry = results.get(`${label}|${name}`) ?? { p50: [], cpu: [], min: Infinity };
      entry.p50.push(quantile(times, 0.5));
      entry.cpu.push((used.user + used.system) / 1000 / PER_ROUND);
      entry.min = Math.min(entry.min, times[0]!);
      results.set(`${label}|${name}`, entry);
    }
  }
}
console.log(`| app | scenario | min ms | median of round p50s, ms | median CPU ms / request | requests |\n|---|---|---|---|---|---|`);
for (const [name] of PATHS) {
  for (const [label] of apps) {
    const r = results.get(`${label}|${name}`)!;
    console.log(`| ${label} | ${name} | ${r.min.toFixed(3)} | ${median(r.p50).toFixed(3)} | ${median(r.cpu).toFixed(3)} | ${ROUNDS * PER_ROUND} |`);
  }
}
process.exit(0);
