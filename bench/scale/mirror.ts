/**
 * `npm run bench:scale -- mirror <percent>...` (default 1 10): a national mirror of ten state-size SSURGO
 * files plus the national lab database, at a percentage of DESIGN's sizes (100 %: ten states of 100 areas
 * x 10,000 polygons, 10 M polygons, and 65,000 pedons), served as one source with LOAM_SNAPSHOT=<dir>
 * (docs/decisions.md#national-mirror, docs/operations.md#a-national-mirror).
 *
 * Each state is generated as the one-state run's SSURGO (./ssurgo.ts) under its own area symbols (ZA001...,
 * ZB001...) and keys, then imported with `loam import usda_ssurgo <folder> --snapshot <dir>/state-ZA.sqlite`
 * (its input deleted after, to bound the disk); the lab database with `loam import usda_kssl` into
 * <dir>/lab.sqlite. States sit five to a row, each state's border column of tiles between its neighbour's
 * last two (as real survey areas' boxes overlap along a state line), so a query on a border asks two files.
 * Measured: each file's import (time, the importer's peak RSS, bytes), start-up to the first /health (5
 * starts), the one-state run's SSURGO and lab queries plus a point and a 0.25° map-units box across a
 * state line (the box's answer must hold map units of both states), RSS serving; then an 11th state's
 * file is added: the other files' bytes and mtimes must not change, and after a restart the mirror serves
 * the new state. Writes bench/tmp/mirror-<p>/results.json and prints the tables. SCALE_REUSE=1 measures
 * serving again on the last run's files (the 11th state's file is written again).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { memoryOf, startLoamServer, TMP, type Child } from "../lib";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { SURVEY_AREA_DATASETS } from "../../src/upstream/snapshot-schema";
import { sizesAt, type ScaleSizes } from "./generate";
import { writeLabTables } from "./kssl";
import { DATASETS, importInto, measure, startups, type Import, type Measured, type Query } from "./measure";
import { KNOWN, labQueries, mapUnitsPath, pointPath, surveyQueries } from "./queries";
import { planAreas, readSourceArea, TILE_STEP, tileShift, tilesPerSideOf, writeArea, type GeneratedArea, type SourceArea, type StatePlan } from "./ssurgo";

export const STATES = 10;
export const PER_ROW = 5;
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXY";

interface State { plan: StatePlan; areas: GeneratedArea[] }

/**
 * State s of the region: area symbols Z + a letter, keys after the states before it, and its origin. A
 * state spans `side` tiles a side; the next one starts 1.5 tiles before that, so its first column of
 * tiles falls between this one's last two (the polygons never overlap: a tile's are 0.0036° x 0.0026°).
 */
export function planState(s: number, sizes: ScaleSizes, polygonsPerTile: number): State {
  const side = Math.ceil(Math.sqrt(sizes.areas)) * tilesPerSideOf(sizes.polygonsPerArea, polygonsPerTile);
  const step = (side - 1.5) * TILE_STEP;
  const plan: StatePlan = { prefix: `Z${LETTERS[s]}`, number: s, origin: [(s % PER_ROW) * step, Math.floor(s / PER_ROW) * step] };
  return { plan, areas: planAreas(sizes.areas, sizes.polygonsPerArea, polygonsPerTile, plan) };
}

/** Generate a state's areas and import them into `file` with `loam import usda_ssurgo`; the input is deleted after. */
async function writeState(state: State, source: SourceArea, work: string, file: string): Promise<Import> {
  const folder = join(work, `ssurgo-${state.plan.prefix}`);
  rmSync(folder, { recursive: true, force: true });
  for (const area of state.areas) writeArea(folder, source, area);
  rmSync(file, { force: true });
  const done = await importInto("usda_ssurgo", [folder], file, work, `${state.plan.prefix} (${file.split("/").pop()})`);
  rmSync(folder, { recursive: true, force: true });
  return done;
}

/**
 * The border queries: between state s and its east neighbour (pairs cycling over the rows), a point of
 * s's last column of tiles (inside both states' area boxes, so both files are asked), and a 0.25° box
 * centred on the line; the box's answer must hold map units of both states.
 */
function borderQueries(states: State[], tilesPerSide: number) {
  const pairs = states.flatMap((west, s) => (s % PER_ROW < PER_ROW - 1 && s + 1 < states.length ? [[west, states[s + 1]!] as const] : []));
  const areasPerSide = Math.ceil(Math.sqrt(states[0]!.areas.length));
  // Round i: the pair, the west state's last column of tiles, and a row below the areas' top row (which may be part filled).
  const at = (i: number) => {
    const [west, east] = pairs[i % pairs.length]!;
    const x = west.plan.origin[0] + (areasPerSide * tilesPerSide - 1) * TILE_STEP;
    return { west, east, lon: KNOWN.lon + x, lat: KNOWN.lat + west.plan.origin[1] + ((i * 7) % (tilesPerSide - 1)) * TILE_STEP };
  };
  const queries: Record<string, Query> = {
    "point on a state line": {
      path: (i) => pointPath(at(i)),
      check: (body: any, i) => {
        if (!(body.observations?.length > 0)) throw new Error(`point on a state line, round ${i}: no observations`);
      },
    },
    "map units, 0.25° box across a state line": {
      path: (i) => mapUnitsPath(at(i).lon - 0.125 + (i % 5) * 0.005, KNOWN.lat + at(i).west.plan.origin[1] - 0.01 + (i % 3) * 0.02),
      check: (body: any, i) => {
        const { west, east } = at(i);
        const symbols = new Set<string>(body.features.map((f: any) => String(f.properties.area_symbol).slice(0, 2)));
        if (!symbols.has(west.plan.prefix) || !symbols.has(east.plan.prefix)) {
          throw new Error(`map units across the ${west.plan.prefix}|${east.plan.prefix} line, round ${i}: the answer holds ${[...symbols].join(", ") || "nothing"}, not both states`);
        }
      },
    },
  };
  return { at, queries };
}

/** How many of the mirror's files hold an SSURGO dataset whose box holds the point: the border point must be in two. */
function filesHolding(files: string[], lon: number, lat: number): number {
  return files.filter((file) => {
    const transport = new SnapshotTransport(file);
    try {
      return (transport.describe().datasets ?? []).some((d) => d.kind === SURVEY_AREA_DATASETS && d.bbox && d.bbox[0] <= lon && lon <= d.bbox[2] && d.bbox[1] <= lat && lat <= d.bbox[3]);
    } finally {
      transport.close();
    }
  }).length;
}

const fileFacts = (dir: string) =>
  Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith(".sqlite")).sort().map((f) => [f, { bytes: statSync(join(dir, f)).size, mtimeMs: statSync(join(dir, f)).mtimeMs }]));

async function getJson(child: Child, path: string): Promise<any> {
  const response = await fetch(child.base + path);
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  return response.json();
}

const recordIds = (body: any): number[] => body.observations.map((o: any) => Number(o.source.record_id));

async function run(percent: number) {
  const dir = join(TMP, `mirror-${percent}`);
  const files = join(dir, "files");
  const work = join(dir, "work");
  const log = (line: string) => process.stderr.write(`[mirror ${percent} %] ${line}\n`);
  const saved = join(dir, "imported.json");
  const sizes = sizesAt(percent);
  const source = await readSourceArea(DATASETS);
  const polygonsPerTile = source.polygons.length;
  const tilesPerSide = tilesPerSideOf(sizes.polygonsPerArea, polygonsPerTile);
  const states = Array.from({ length: STATES }, (_, s) => planState(s, sizes, polygonsPerTile));
  const added = planState(STATES, sizes, polygonsPerTile);
  const started = performance.now();
  let imports: Import[] = [];
  let pedons = { pedons: 0, layers: 0, sourcePedons: 0 };
  rmSync(join(files, `state-${added.plan.prefix}.sqlite`), { force: true });
  if (process.env.SCALE_REUSE === "1" && existsSync(saved)) {
    ({ imports, pedons } = JSON.parse(readFileSync(saved, "utf8")));
    log("reusing the last run's files");
  } else {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(files, { recursive: true });
    mkdirSync(work, { recursive: true });
    for (const state of states) {
      imports.push(await writeState(state, source, work, join(files, `state-${state.plan.prefix}.sqlite`)));
      log(`imported ${JSON.stringify(imports.at(-1))}`);
    }
    const lab = writeLabTables(DATASETS, join(work, "kssl"), sizes.pedons);
    imports.push(await importInto("usda_kssl", [join(work, "kssl", "ZZ")], join(files, "lab.sqlite"), work, "lab database (lab.sqlite)"));
    rmSync(join(work, "kssl"), { recursive: true, force: true });
    pedons = { pedons: lab.pedons, layers: lab.layers, sourcePedons: lab.sourcePedons.length };
    log(`imported ${JSON.stringify(imports.at(-1))}`);
    writeFileSync(saved, JSON.stringify({ imports, pedons }));
  }
  const importedSeconds = (performance.now() - started) / 1000;
  const mirrorFiles = readdirSync(files).filter((f) => f.endsWith(".sqlite")).sort().map((f) => join(files, f));
  const border = borderQueries(states, tilesPerSide);
  const asked = filesHolding(mirrorFiles, border.at(0).lon, border.at(0).lat);
  if (asked !== 2) throw new Error(`the point on a state line lies in the boxes of ${asked} files' areas, not 2`);

  const start = await startups(files, dir);
  log(`start-up: ${start.map((s) => s.toFixed(2)).join(", ")} s`);
  // Rounds go state by state: area k of every state, then area k + 1.
  const byRound = states[0]!.areas.flatMap((_, k) => states.map((s) => s.areas[k]!));
  const survey = surveyQueries({ areas: byRound, polygonsPerArea: sizes.polygonsPerArea, polygonsPerTile });
  const lab = labQueries(pedons.pedons, pedons.sourcePedons);
  const qs: Record<string, Query> = {
    point: survey.point,
    "AOI 10 ha": survey["AOI 10 ha"],
    "map units, 0.25° box": survey["map units, 0.25° box"],
    ...lab,
    "100 points": survey["100 points"],
    ...border.queries,
  };
  // The same place in the first area of state A and of the added state: the added state's answer is A's under its own keys.
  const samePlace = (state: State) => pointPath({ lon: KNOWN.lon + tileShift(state.areas[0]!, 0)[0], lat: KNOWN.lat + tileShift(state.areas[0]!, 0)[1] });
  const stateDb = join(dir, "state-serve.sqlite");
  let child = await startLoamServer(stateDb, { env: { LOAM_SNAPSHOT: files, CACHE_TTL_SECONDS: "0" } });
  let results: Record<string, Measured>;
  let memory: { peakMb: number; rssMb: number };
  let inA: any;
  try {
    results = await measure(child.base, child.pid, qs);
    memory = memoryOf(child.pid);
    inA = await getJson(child, samePlace(states[0]!));
  } finally {
    await child.stop();
  }
  log(`served; RSS ${memory.rssMb.toFixed(0)} MB`);

  // Adding a state: its file written, no other touched; served after a restart.
  const before = fileFacts(files);
  const addedImport = await writeState(added, source, work, join(files, `state-${added.plan.prefix}.sqlite`));
  const after = fileFacts(files);
  const changed = Object.keys(before).filter((f) => after[f]?.bytes !== before[f]!.bytes || after[f]?.mtimeMs !== before[f]!.mtimeMs);
  if (changed.length > 0) throw new Error(`adding ${added.plan.prefix} changed ${changed.join(", ")}`);
  const restarted = performance.now();
  child = await startLoamServer(stateDb, { env: { LOAM_SNAPSHOT: files, CACHE_TTL_SECONDS: "0" } });
  const restartSeconds = (performance.now() - restarted) / 1000;
  try {
    const inAdded = await getJson(child, samePlace(added));
    const shift = added.areas[0]!.keyOffset - states[0]!.areas[0]!.keyOffset;
    if (recordIds(inA).length === 0 || JSON.stringify(recordIds(inAdded)) !== JSON.stringify(recordIds(inA).map((k) => k + shift))) {
      throw new Error(`the added state's point answers ${JSON.stringify(recordIds(inAdded))}, not state A's ${JSON.stringify(recordIds(inA))} + ${shift}`);
    }
    const againA = await getJson(child, samePlace(states[0]!));
    if (JSON.stringify(recordIds(againA)) !== JSON.stringify(recordIds(inA))) throw new Error("state A's point answers otherwise after the state was added");
  } finally {
    await child.stop();
  }
  rmSync(work, { recursive: true, force: true });
  const summary = {
    percent,
    at: new Date().toISOString(),
    load: (await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" "),
    sizes: { ...sizes, states: STATES, polygons: STATES * sizes.areas * sizes.polygonsPerArea, ...pedons },
    imports,
    importedSeconds,
    totalBytes: imports.reduce((t, i) => t + i.bytes, 0),
    startupSeconds: start,
    queries: results,
    serving: memory,
    addedState: { import: addedImport, otherFilesUnchanged: Object.keys(before).length, startSeconds: restartSeconds },
  };
  writeFileSync(join(dir, "results.json"), JSON.stringify(summary, null, 2));
  return summary;
}

export async function main(percents: number[]): Promise<void> {
  for (const percent of percents) {
    const s = await run(percent);
    console.log(`\n## national mirror at ${percent} % (${s.sizes.states} states of ${s.sizes.areas} areas x ${s.sizes.polygonsPerArea} polygons = ${s.sizes.polygons}; ${s.sizes.pedons} pedons / ${s.sizes.layers} layers; load ${s.load})\n`);
    console.log("| file | import s | peak RSS MB | MB |\n|---|---:|---:|---:|");
    for (const i of s.imports) console.log(`| ${i.source} | ${i.seconds.toFixed(1)} | ${Math.round(i.peakMb)} | ${(i.bytes / 1e6).toFixed(1)} |`);
    console.log(`| all ${s.imports.length} files | ${s.imports.reduce((t, i) => t + i.seconds, 0).toFixed(1)} | ${Math.round(Math.max(...s.imports.map((i) => i.peakMb)))} | ${(s.totalBytes / 1e6).toFixed(1)} |`);
    console.log(`\nstart-up to first /health: ${s.startupSeconds.map((x) => x.toFixed(2)).join(", ")} s; RSS serving ${Math.round(s.serving.rssMb)} MB (peak ${Math.round(s.serving.peakMb)} MB)\n`);
    console.log("| cold query | p50 ms | p95 ms | server CPU ms | bytes | RSS growth MB |\n|---|---:|---:|---:|---:|---:|");
    for (const [name, q] of Object.entries(s.queries)) console.log(`| ${name} | ${q.p50.toFixed(1)} | ${q.p95.toFixed(1)} | ${q.cpuMs.toFixed(1)} | ${q.bytes} | ${q.rssGrowthMb.toFixed(0)} |`);
    const a = s.addedState;
    console.log(`\nan 11th state added: ${a.import.source} imported in ${a.import.seconds.toFixed(1)} s (${(a.import.bytes / 1e6).toFixed(1)} MB); the ${a.otherFilesUnchanged} other files' bytes and mtimes unchanged; restarted in ${a.startSeconds.toFixed(2)} s, serving the new state`);
  }
}
