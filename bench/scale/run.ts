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
 * `npm run bench:scale -- mirror <percent>...` measures the national mirror instead (./mirror.ts).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { memoryOf, startLoamServer, TMP } from "../lib";
import { generate, type Generated } from "./generate";
import { DATASETS, importInto, measure, startups, type Import, type Measured } from "./measure";
import { queries } from "./queries";

/** Each source's download and its provider, in import order. */
const SOURCES = [
  ["SSURGO", "usda_ssurgo", "ssurgo"],
  ["KSSL", "usda_kssl", "kssl/ZZ"],
  ["SCAN", "usda_scan", "scan/ismn"],
  ["SoilGrids", "isric_soilgrids", "soilgrids/raster"],
] as const;

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

/** One size's tables, as docs/benchmarks.md shows them. */
function report(s: Awaited<ReturnType<typeof run>>): void {
  console.log(`\n## ${s.percent} % (${s.sizes.polygons} polygons in ${s.sizes.areas} areas, ${s.sizes.pedons} pedons / ${s.sizes.layers} layers, ${s.sizes.stations} stations / ${s.sizes.seriesValues} values, 72 rasters of ${s.sizes.rasterSide}²; load ${s.load})\n`);
  console.log("| import | seconds | peak RSS MB | snapshot MB |\n|---|---:|---:|---:|");
  for (const i of s.imports) console.log(`| ${i.source} | ${i.seconds.toFixed(1)} | ${Math.round(i.peakMb)} | ${(i.bytes / 1e6).toFixed(1)} |`);
  console.log(`\nbytes per million polygons ${(s.bytesPerMillionPolygons / 1e6).toFixed(0)} MB; per million series values ${(s.bytesPerMillionSeriesValues / 1e6).toFixed(1)} MB`);
  console.log(`start-up to first /health: ${s.startupSeconds.map((x) => x.toFixed(2)).join(", ")} s; RSS serving ${Math.round(s.serving.rssMb)} MB (peak ${Math.round(s.serving.peakMb)} MB)\n`);
  console.log("| cold query | p50 ms | p95 ms | server CPU ms | bytes | RSS growth MB |\n|---|---:|---:|---:|---:|---:|");
  for (const [name, q] of Object.entries(s.queries)) console.log(`| ${name} | ${q.p50.toFixed(1)} | ${q.p95.toFixed(1)} | ${q.cpuMs.toFixed(1)} | ${q.bytes} | ${q.rssGrowthMb.toFixed(0)} |`);
}

const args = process.argv.slice(2);
const percents = args.map(Number).filter((p) => p > 0 && p <= 100);
if (args[0] === "mirror") await (await import("./mirror")).main(percents.length ? percents : [1, 10]);
else for (const percent of percents.length ? percents : [1, 10]) report(await run(percent));
