/**
 * `npm run bench:scale -- <percent>...` (default 1 10): Loam at a state's and a nation's size
 * (DESIGN's sizes as a percentage). For each percentage: generate the inputs (./generate.ts) under
 * bench/tmp/scale-<p>/, import each source with `loam import` into the snapshot that is served (wall
 * time and peak RSS of the importing process from /proc; the bytes each adds), start
 * Loam on it with the cache off (CACHE_TTL_SECONDS=0) and measure: start-up to the first /health (5
 * starts), then cold p50/p95 latency and the server's CPU per request (/proc) of each query, its rounds
 * one after another, every request at another place so no answer repeats; RSS while serving. Writes
 * bench/tmp/scale-<p>/results.json and prints a markdown table. Run it niced on a shared machine.
 * SCALE_REUSE=1 measures serving again on the last run's inputs and snapshots; SCALE_ROUNDS (40) sets the rounds.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { cpuTicks, memoryOf, startLoamServer, TMP } from "../lib";
import { generate, type Generated } from "./generate";
import { copyShift, pedonNumber } from "./kssl";
import { stationTriplet } from "./scan";
import { tileShift } from "./ssurgo";
import { CELL, REGION_ORIGIN } from "./soilgrids";

const ROOT = resolve(import.meta.dir, "../..");
const DATASETS = join(ROOT, "datasets");
const ROUNDS = Number(process.env.SCALE_ROUNDS ?? 40);
// A point of IA073's AOI on map unit 2765528 (datasets README §1.3): tiles repeat it.
const KNOWN = { lon: -94.359608, lat: 41.944131 };

interface Import { source: string; seconds: number; peakMb: number; bytes: number }

/**
 * `loam import <provider> <path> --snapshot <out>`, sampling the child's RSS: wall time, peak RSS, and
 * the bytes the file grew by (an import into an existing file copies it first: part of its time).
 */
async function importInto(provider: string, paths: string[], out: string, dataDir: string, source: string): Promise<Import> {
  const before = existsSync(out) ? statSync(out).size : 0;
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, "src/cli.ts", "import", provider, ...paths, "--snapshot", out], {
    cwd: ROOT,
    // The generated folder is the data folder: SCAN's station metadata (a reference table) is read from it.
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", LOAM_DATA_DIR: dataDir },
    stdout: "ignore",
    stderr: "pipe",
  });
  let peakMb = 0;
  while (proc.exitCode === null) {
    try {
      const { peakMb: now } = memoryOf(proc.pid);
      if (Number.isFinite(now)) peakMb = Math.max(peakMb, now);
    } catch {
      // exited between the check and the read
    }
    await Bun.sleep(50);
  }
  await proc.exited;
  if (proc.exitCode !== 0) throw new Error(`loam import ${provider} failed (${proc.exitCode}): ${(await new Response(proc.stderr).text()).slice(-500)}`);
  return { source, seconds: (performance.now() - started) / 1000, peakMb, bytes: statSync(out).size - before };
}

/** Each source's download and its provider, in import order. */
const SOURCES = [
  ["SSURGO", "usda_ssurgo", "ssurgo"],
  ["KSSL", "usda_kssl", "kssl/ZZ"],
  ["SCAN", "usda_scan", "scan/ismn"],
  ["SoilGrids", "isric_soilgrids", "soilgrids/raster"],
] as const;

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

/** The queries, each a function of the round (another place each time, within what was generated). */
function queries(g: Generated): Record<string, (i: number) => string> {
  const area = (i: number) => g.areas[i % g.areas.length]!;
  const tiles = Math.floor(g.sizes.polygonsPerArea / g.polygonsPerTile);
  // k: the k-th of 100 points, in the same area (a request's points may not span a whole state).
  const at = (i: number, k = 0) => {
    const [dx, dy] = tileShift(area(i), (i * 7919 + k * 104729) % tiles);
    return { lat: KNOWN.lat + dy, lon: KNOWN.lon + dx };
  };
  const copies = Math.ceil(g.sizes.pedons / g.kssl.sourcePedons.length);
  return {
    point: (i) => `/v1/soil/location?latitude=${at(i).lat}&longitude=${at(i).lon}&properties=clay,ph,om&depth_bottom_cm=30`,
    "AOI 10 ha": (i) => {
      const p = at(i);
      const [hw, hh] = [0.00383 / 2, 0.00285 / 2];
      return `/v1/soil/aoi?bbox=${p.lon - hw},${p.lat - hh},${p.lon + hw},${p.lat + hh}&properties=clay,drainage_class&depth_bottom_cm=30`;
    },
    "map units, 0.25° box": (i) => {
      const a = area(i).offset;
      const w = KNOWN.lon - 0.01 + a[0] + (i % 5) * 0.02;
      const s = KNOWN.lat - 0.01 + a[1] + (i % 3) * 0.02;
      return `/v1/soil/mapunits?bbox=${w},${s},${w + 0.25},${s + 0.25}&property=clay`;
    },
    "box of 100 pedons": (i) => {
      const [dx, dy] = copyShift(i % copies);
      return `/v1/pedons?bbox=${-96.5 + dx + (i % 7) * 0.01},${37.9 + dy},${-94.6 + dx},${40 + dy}&limit=100`;
    },
    pedon: (i) => `/v1/pedons/${pedonNumber((i * 7919) % g.sizes.pedons)}?properties=clay,ph,organic_carbon`,
    "a year of hourly": (i) => {
      const year = 2010 + (i % 10);
      return `/v1/stations/${stationTriplet(1 + (i % g.scan.stations))}/series?element=soil_moisture&depth_cm=5.08&interval=hourly&start=${year}-01-01&end=${year}-12-31T23:00:00Z`;
    },
    "a decade of daily": (i) => `/v1/stations/${stationTriplet(1 + (i % g.scan.stations))}/series?element=soil_moisture&depth_cm=5.08&interval=daily&start=2010-01-01&end=2019-12-${31 - (i % 5)}`,
    "modeled point (24 layers)": (i) => {
      const [r, c] = g.dataCells[i % g.dataCells.length]!;
      return `/v1/soil/modeled?latitude=${REGION_ORIGIN[1] - (r + 0.5) * CELL}&longitude=${REGION_ORIGIN[0] + (c + 0.5) * CELL}&properties=clay,silt,sand,ph&depth_bottom_cm=200`;
    },
    "100 points": (i) => `/v1/soil/points?points=${Array.from({ length: 100 }, (_, k) => at(i, k)).map((p) => `${p.lat},${p.lon}`).join(";")}&properties=clay&depth_bottom_cm=30`,
  };
}

/** rssGrowthMb: how much the server's RSS grew across this query's requests (what it leaves held). */
interface Measured { p50: number; p95: number; cpuMs: number; rssGrowthMb: number; status: number; bytes: number }

/**
 * Each query's rounds run one after another, query by query: what a request leaves to collect (a decade of
 * daily values leaves ~100 MB of garbage) is paid by the requests of its own kind, not by whichever
 * query followed it in an interleaved round (docs/benchmarks.md, "State and national scale").
 */
async function measure(base: string, pid: number, qs: Record<string, (i: number) => string>): Promise<Record<string, Measured>> {
  const times: Record<string, number[]> = {};
  const cpu: Record<string, number> = {};
  const last: Record<string, { status: number; bytes: number }> = {};
  const grew: Record<string, number> = {};
  for (const [name, path] of Object.entries(qs)) {
    for (let round = 0; round < ROUNDS; round++) {
      const ticks = cpuTicks(pid);
      const rss = memoryOf(pid).rssMb;
      const started = performance.now();
      const response = await fetch(base + path(round), { headers: { "accept-encoding": "identity" } });
      const body = await response.arrayBuffer();
      (times[name] ??= []).push(performance.now() - started);
      cpu[name] = (cpu[name] ?? 0) + (cpuTicks(pid) - ticks) * 10;
      grew[name] = (grew[name] ?? 0) + (memoryOf(pid).rssMb - rss);
      last[name] = { status: response.status, bytes: body.byteLength };
      if (response.status !== 200) throw new Error(`${name}: ${path(round)} answered ${response.status}: ${new TextDecoder().decode(body).slice(0, 300)}`);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([name, t]) => [name, { p50: quantile(t, 0.5), p95: quantile(t, 0.95), cpuMs: cpu[name]! / ROUNDS, rssGrowthMb: grew[name]!, ...last[name]! }]));
}

async function startups(snapshot: string, dir: string): Promise<number[]> {
  const seconds: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const child = await startLoamServer(join(dir, `state-${i}.sqlite`), { env: { LOAM_SNAPSHOT: snapshot, CACHE_TTL_SECONDS: "0" } });
    seconds.push((performance.now() - started) / 1000);
    await child.stop();
  }
  return seconds;
}

async function run(percent: number) {
  const dir = join(TMP, `scale-${percent}`);
  mkdirSync(dir, { recursive: true });
  const log = (line: string) => process.stderr.write(`[${percent} %] ${line}\n`);
  const served = join(dir, "snapshot.sqlite");
  const saved = join(dir, "imported.json");
  let g: Generated;
  let imports: Import[] = [];
  if (process.env.SCALE_REUSE === "1" && existsSync(saved)) {
    // Serving measured again on the inputs and snapshots of the last run at this size.
    ({ g, imports } = JSON.parse(readFileSync(saved, "utf8")));
    log("reusing the generated inputs and snapshots of the last run");
  } else {
    g = await generate(DATASETS, join(dir, "data"), percent, log);
    log(`generated in ${g.seconds.toFixed(1)} s`);
    rmSync(served, { force: true });
    for (const [source, provider, sub] of SOURCES) {
      // SoilGrids' importer takes the files themselves, the others their folder.
      const folder = join(g.dataDir, sub);
      const paths = sub.startsWith("soilgrids") ? g.rasters.map((f) => join(folder, f)) : [folder];
      imports.push(await importInto(provider, paths, served, g.dataDir, source));
      log(`imported ${source}: ${JSON.stringify(imports.at(-1))}`);
    }
    imports.push({ source: "all four", seconds: imports.reduce((t, i) => t + i.seconds, 0), peakMb: Math.max(...imports.map((i) => i.peakMb)), bytes: statSync(served).size });
    writeFileSync(saved, JSON.stringify({ g, imports }));
  }
  const start = await startups(served, dir);
  log(`start-up: ${start.map((s) => s.toFixed(2)).join(", ")} s`);
  const child = await startLoamServer(join(dir, "state-serve.sqlite"), { env: { LOAM_SNAPSHOT: served, CACHE_TTL_SECONDS: "0" } });
  let results: Record<string, Measured>;
  let memory: { peakMb: number; rssMb: number };
  try {
    results = await measure(child.base, child.pid, queries(g));
    memory = memoryOf(child.pid);
  } finally {
    await child.stop();
  }
  const polygons = g.sizes.areas * g.sizes.polygonsPerArea;
  const seriesValues = g.scan.stations * g.scan.valuesPerStation;
  const summary = {
    percent,
    at: new Date().toISOString(),
    load: (await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" "),
    sizes: { ...g.sizes, polygons, layers: g.kssl.layers, seriesValues },
    imports,
    bytesPerMillionPolygons: Math.round((imports[0]!.bytes / polygons) * 1e6),
    bytesPerMillionSeriesValues: Math.round((imports[2]!.bytes / seriesValues) * 1e6),
    startupSeconds: start,
    queries: results,
    serving: memory,
  };
  writeFileSync(join(dir, "results.json"), JSON.stringify(summary, null, 2));
  return summary;
}

const percents = process.argv.slice(2).map(Number).filter((p) => p > 0 && p <= 100);
for (const percent of percents.length ? percents : [1, 10]) {
  const s = await run(percent);
  console.log(`\n## ${percent} % (${s.sizes.polygons} polygons in ${s.sizes.areas} areas, ${s.sizes.pedons} pedons / ${s.sizes.layers} layers, ${s.sizes.stations} stations / ${s.sizes.seriesValues} values, 72 rasters of ${s.sizes.rasterSide}²; load ${s.load})\n`);
  console.log("| import | seconds | peak RSS MB | snapshot MB |\n|---|---:|---:|---:|");
  for (const i of s.imports) console.log(`| ${i.source} | ${i.seconds.toFixed(1)} | ${Math.round(i.peakMb)} | ${(i.bytes / 1e6).toFixed(1)} |`);
  console.log(`\nbytes per million polygons ${(s.bytesPerMillionPolygons / 1e6).toFixed(0)} MB; per million series values ${(s.bytesPerMillionSeriesValues / 1e6).toFixed(1)} MB`);
  console.log(`start-up to first /health: ${s.startupSeconds.map((x) => x.toFixed(2)).join(", ")} s; RSS serving ${Math.round(s.serving.rssMb)} MB (peak ${Math.round(s.serving.peakMb)} MB)\n`);
  console.log("| cold query | p50 ms | p95 ms | server CPU ms | bytes | RSS growth MB |\n|---|---:|---:|---:|---:|---:|");
  for (const [name, q] of Object.entries(s.queries)) console.log(`| ${name} | ${q.p50.toFixed(1)} | ${q.p95.toFixed(1)} | ${q.cpuMs.toFixed(1)} | ${q.bytes} | ${q.rssGrowthMb.toFixed(0)} |`);
}
