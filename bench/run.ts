/**
 * `bun run bench`: Loam against the platform's limit, on loopback, with wrk, bounded in requests and
 * time. Starts Loam as child processes (`bun --max-http-header-size=262144 src/cli.ts serve`), a bare
 * `Bun.serve` baseline answering the same pre-serialized bodies, measures requests/s, p50/p99 and the
 * servers' peak RSS, and writes bench/RESULTS.md. Temporary files go to bench/tmp (gitignored).
 *
 * Environment: BENCH_SECONDS (per measured run, default 8), BENCH_CONNECTIONS (default 32).
 */
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { densifySnapshot } from "./densify";
import { measureWorkers, workersSection, type WorkersRow } from "./workers";
import { cacheStoreSection, measureCacheStores, type CacheStoreRow } from "./cache-store";
import { hotPathSection, measureHotPath } from "./hot-path";
import { COLLECTION_SCENARIOS } from "./collections";
import { ROOT, TMP, machine, memoryOf, runWrk, startBaseline, startLoamServer, wrkVersion, type Child, type WrkResult } from "./lib";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const MAX_REQUESTS = 2_000_000; // per run; far above what 8 s can reach here, so it only bounds a runaway
const WARMUP_SECONDS = 2;

/** IA073 known answer  (the data README, LOAM_DATA_DIR/README.md, section 1.3): Clarion loam, 2 to 6 percent slopes. */
const KNOWN_POINT = "/v1/soil/location?latitude=41.944131&longitude=-94.359608";
/** Eastern Kansas, 2 x 2 degrees (4 square degrees, the most a box may cover). */
const KANSAS_BOX: [number, number, number, number] = [-97, 38, -95, 40];
const BBOX = KANSAS_BOX.join(",");
const PEDONS_100 = `/v1/pedons?bbox=${BBOX}&limit=100`;
const PEDONS_500 = `/v1/pedons?bbox=${BBOX}&limit=500`;
const PEDON = "/v1/pedons/02N0245";
const UNCACHED_POINTS = 50_000;

const TARGETS = {
  cachedRatio: 0.5,
  cachedP99Ms: 10,
  uncachedP50Ms: 5,
  pedons500P50Ms: 20,
  peakRssMb: 200,
};

function log(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

function fresh(path: string): string {
  for (const suffix of ["", "-wal", "-shm"]) if (existsSync(path + suffix)) rmSync(path + suffix);
  return path;
}

async function fetchText(url: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.text() };
}

/** Distinct points inside the bounding boxes of the snapshot's map-unit polygons (IA073, IA015, IA183, MH936). */
function distinctPoints(snapshotPath: string, count: number): Array<[lat: string, lon: string]> {
  const db = new Database(snapshotPath, { readonly: true });
  const boxes = db.query<{ min_x: number; max_x: number; min_y: number; max_y: number }, []>("SELECT min_x, max_x, min_y, max_y FROM mupolygon_rtree ORDER BY id").all();
  db.close();
  // mulberry32: deterministic, so every run asks the same points.
  let seed = 20_261_122;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const seen = new Set<string>();
  const points: Array<[string, string]> = [];
  // Some polygons are a few metres across: a duplicate moves on to the next box (bounded attempts).
  for (let attempt = 0; points.length < count && attempt < count * 20; attempt++) {
    const box = boxes[attempt % boxes.length]!;
    const lat = (box.min_y + random() * (box.max_y - box.min_y)).toFixed(6);
    const lon = (box.min_x + random() * (box.max_x - box.min_x)).toFixed(6);
    const key = `${lat},${lon}`;
    if (seen.has(key)) continue;
    seen.add(key);
    points.push([lat, lon]);
  }
  return points;
}

/** Lua cycling through the point list; each wrk thread starts at its own offset. */
function pointsLua(points: Array<[string, string]>): string {
  const rows = points.map(([lat, lon]) => `"/v1/soil/location?latitude=${lat}&longitude=${lon}"`);
  return `local paths = {\n${rows.join(",\n")}\n}
local i = nil
function next_path()
  if i == nil then i = (id or 0) * ${Math.floor(points.length / 4)} end
  i = i + 1
  return paths[((i - 1) % #paths) + 1]
end`;
}

interface Row {
  scenario: string;
  result: WrkResult;
  baseline?: WrkResult;
  /** Paired rounds' ratios (measurePaired); the row's ratio is their median. */
  ratios?: number[];
  bodyBytes: number;
  note?: string;
}

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");
const ratio = (row: Row) => (row.ratios ? [...row.ratios].sort((a, b) => a - b)[Math.floor(row.ratios.length / 2)]! : row.baseline ? row.result.rps / row.baseline.rps : NaN);

let runs = 0;

async function measure(label: string, url: string, connections = CONNECTIONS, pathsLua?: string): Promise<WrkResult> {
  // A client address of its own per run: the rate limiter counts every request (1,000,000 a minute each).
  runs++;
  const client = `198.18.${Math.floor(runs / 250)}.${runs % 250}`;
  log(`${label}: warm-up ${WARMUP_SECONDS} s`);
  await runWrk(url, { label: `${label}-warmup`, connections, durationSeconds: WARMUP_SECONDS, maxRequests: MAX_REQUESTS, pathsLua, client });
  log(`${label}: ${SECONDS} s at ${connections} connections`);
  const result = await runWrk(url, { label, connections, durationSeconds: SECONDS, maxRequests: MAX_REQUESTS, pathsLua, client });
  if (result.errors > 0) log(`${label}: WARNING ${result.errors} errors (non-2xx answers or socket errors)`);
  log(`${label}: ${fmt(result.rps, 0)} req/s, p50 ${fmt(result.p50Ms)} ms, p99 ${fmt(result.p99Ms)} ms, errors ${result.errors}`);
  return result;
}

/** Rounds of a paired measurement (Loam and the baseline taking turns). */
const PAIRED_ROUNDS = 3;

interface Paired {
  result: WrkResult;
  baseline: WrkResult;
  /** Loam's throughput over the baseline's, per round. */
  ratios: number[];
}

/** The run with the median throughput (its latencies are a real run's). */
function medianRun(runs: WrkResult[]): WrkResult {
  return [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!;
}

/**
 * Loam against the baseline in PAIRED_ROUNDS rounds, taking turns (the order alternates per round).
 * Loopback throughput on a shared VM drifts by tens of percent within minutes, so a ratio is only
 * worth something between runs made at nearly the same time: each round gives one, the median is kept.
 */
async function measurePaired(label: string, loamUrl: string, baselineUrl: string): Promise<Paired> {
  const loam: WrkResult[] = [];
  const base: WrkResult[] = [];
  for (let round = 0; round < PAIRED_ROUNDS; round++) {
    if (round % 2 === 0) {
      base.push(await measure(`baseline ${label} (round ${round + 1})`, baselineUrl));
      loam.push(await measure(`${label} (round ${round + 1})`, loamUrl));
    } else {
      loam.push(await measure(`${label} (round ${round + 1})`, loamUrl));
      base.push(await measure(`baseline ${label} (round ${round + 1})`, baselineUrl));
    }
  }
  const ratios = loam.map((run, i) => run.rps / base[i]!.rps);
  return { result: medianRun(loam), baseline: medianRun(base), ratios };
}

const pairedNote = (ratios: number[]) => `ratio: median of ${PAIRED_ROUNDS} paired rounds (${ratios.map((r) => `${fmt(r * 100, 0)} %`).join(", ")})`;

async function main(): Promise<void> {
  if (!wrkVersion()) {
    log("wrk is not installed; install it (Debian: apt-get install -y wrk) and run again.");
    process.exit(2);
  }
  mkdirSync(TMP, { recursive: true });
  const started = new Date();
  const host = machine();
  log(`${host.cpu}, ${host.cores} cores, ${host.memoryGb} GB; bun ${host.bun}; wrk ${host.wrk}`);

  // The snapshot every server reads (built from datasets when missing, as `npm install` does).
  const ensure = Bun.spawnSync([process.execPath, "src/cli.ts", "snapshot", "ensure"], { cwd: ROOT, stderr: "inherit", stdout: "inherit" });
  if (ensure.exitCode !== 0) throw new Error("could not build the snapshot");
  const snapshotPath = join(ROOT, "data", "snapshot.sqlite");
  if (!existsSync(snapshotPath)) throw new Error(`no snapshot at ${snapshotPath}`);

  const children: Child[] = [];
  const stopAll = async () => {
    for (const child of children.splice(0)) await child.stop();
  };
  process.on("SIGINT", () => void stopAll().then(() => process.exit(130)));

  const rows: Row[] = [];
  let workers: WorkersRow[] = [];
  let stores: CacheStoreRow[] = [];
  let hot: Awaited<ReturnType<typeof measureHotPath>> | undefined;
  const peaks: Array<{ server: string; peakMb: number; rssMb: number }> = [];
  try {
    // 1. Loam with its cache on: cached location, pedon search, pedon detail.
    const cachedServer = await startLoamServer(fresh(join(TMP, "bench-cached.sqlite")));
    children.push(cachedServer);
    await fetchText(cachedServer.base + KNOWN_POINT); // miss: fills the cache
    const location = await fetchText(cachedServer.base + KNOWN_POINT);
    const locationBody = JSON.parse(location.body);
    if (location.status !== 200 || locationBody.cache?.hit !== true || !(locationBody.observations?.length > 0)) {
      throw new Error(`the known point did not answer a cached 200 with observations (status ${location.status})`);
    }
    const bodies: Record<string, string> = { "/location": location.body };
    const pedonChecks: Record<string, { status: number; features?: number; truncated?: boolean; layers?: number; body: string }> = {};
    for (const [name, path] of [["pedons100", PEDONS_100], ["pedons500", PEDONS_500], ["pedon", PEDON]] as const) {
      await fetchText(cachedServer.base + path);
      const answer = await fetchText(cachedServer.base + path);
      let parsed: any = null;
      try {
        parsed = JSON.parse(answer.body);
      } catch {
        // reported below
      }
      pedonChecks[name] = { status: answer.status, features: parsed?.features?.length, truncated: parsed?.truncated, layers: parsed?.layers?.length, body: answer.body };
      if (answer.status === 200) bodies[`/${name}`] = answer.body;
      log(`${path}: ${answer.status}${parsed?.features ? `, ${parsed.features.length} features, truncated ${parsed.truncated}` : ""}${parsed?.layers ? `, ${parsed.layers.length} layers` : ""}`);
    }

    // The polygon collections with summaries (bench/collections.ts): the OGC items of a 0.02° box with two
    // summary properties, and /v1/soil/mapunits with property=clay; cached, so derived once (docs/decisions.md#derived-once).
    const collectionBodies: Record<string, string> = {};
    for (const scenario of COLLECTION_SCENARIOS) {
      await fetchText(cachedServer.base + scenario.path);
      const answer = await fetchText(cachedServer.base + scenario.path);
      if (answer.status === 200) bodies[`/${scenario.name}`] = collectionBodies[scenario.name] = answer.body;
      log(`${scenario.path}: ${answer.status}`);
    }

    // 2. The dense snapshot copy for a true 500-feature answer (see densify.ts).
    const densePath = join(TMP, "dense-snapshot.sqlite");
    densifySnapshot(snapshotPath, densePath, KANSAS_BOX, 600);
    const denseServer = await startLoamServer(fresh(join(TMP, "bench-dense.sqlite")), { env: { LOAM_SNAPSHOT: densePath } });
    children.push(denseServer);
    await fetchText(denseServer.base + PEDONS_500);
    const dense = await fetchText(denseServer.base + PEDONS_500);
    let denseFeatures: number | undefined;
    try {
      denseFeatures = JSON.parse(dense.body).features?.length;
    } catch {
      // reported below
    }
    if (dense.status === 200) bodies["/pedons500dense"] = dense.body;
    log(`dense ${PEDONS_500}: ${dense.status}, ${denseFeatures ?? "no"} features`);

    // 3. The baseline: the same bytes from a bare Bun.serve.
    const baseline = await startBaseline(bodies);
    children.push(baseline);

    // Each cached scenario is measured in rounds against the baseline (measurePaired).
    const location_ = await measurePaired("cached location", cachedServer.base + KNOWN_POINT, baseline.base + "/location");
    rows.push({ scenario: "cached `/v1/soil/location` (IA073 known point)", ...location_, bodyBytes: Buffer.byteLength(location.body) });

    for (const [name, path, title] of [
      ["pedons100", PEDONS_100, `\`/v1/pedons\` eastern Kansas, limit=100`],
      ["pedons500", PEDONS_500, `\`/v1/pedons\` eastern Kansas, limit=500 (real data)`],
      ["pedon", PEDON, "`/v1/pedons/02N0245`"],
    ] as const) {
      const check = pedonChecks[name]!;
      if (check.status !== 200) {
        log(`${path} answered ${check.status}; skipped`);
        continue;
      }
      const paired = await measurePaired(name, cachedServer.base + path, `${baseline.base}/${name}`);
      const note = check.features !== undefined ? `${check.features} features, truncated ${check.truncated}` : check.layers !== undefined ? `${check.layers} layers` : undefined;
      rows.push({ scenario: title, ...paired, bodyBytes: Buffer.byteLength(check.body), note });
    }
    for (const scenario of COLLECTION_SCENARIOS) {
      const body = collectionBodies[scenario.name];
      if (body === undefined) continue;
      const paired = await measurePaired(scenario.name, cachedServer.base + scenario.path, `${baseline.base}/${scenario.name}`);
      rows.push({ scenario: `cached ${scenario.title}`, ...paired, bodyBytes: Buffer.byteLength(body), note: `${JSON.parse(body).features.length} features` });
    }
    peaks.push({ server: "Loam, cache on (cached location, pedons, polygon collections)", ...memoryOf(cachedServer.pid) });

    if (dense.status === 200) {
      const paired = await measurePaired("pedons500 dense", denseServer.base + PEDONS_500, baseline.base + "/pedons500dense");
      rows.push({
        scenario: "`/v1/pedons` limit=500, snapshot + synthetic pedons",
        ...paired,
        bodyBytes: Buffer.byteLength(dense.body),
        note: `${denseFeatures} features (bench-only snapshot copy, see bench/densify.ts)`,
      });
      const single = await measure("pedons500 dense c=1", denseServer.base + PEDONS_500, 1);
      rows.push({ scenario: "`/v1/pedons` limit=500, snapshot + synthetic pedons, 1 connection", result: single, bodyBytes: Buffer.byteLength(dense.body), note: `${denseFeatures} features` });
    }
    peaks.push({ server: "Loam, dense snapshot (pedons 500)", ...memoryOf(denseServer.pid) });
    peaks.push({ server: "baseline Bun.serve", ...memoryOf(baseline.pid) });
    await denseServer.stop();
    await cachedServer.stop();

    // 4. Uncached point queries: CACHE_TTL_SECONDS=0 disables the cache store; every point is distinct.
    const points = distinctPoints(snapshotPath, UNCACHED_POINTS);
    const uncachedServer = await startLoamServer(fresh(join(TMP, "bench-uncached.sqlite")), { env: { CACHE_TTL_SECONDS: "0" } });
    children.push(uncachedServer);
    let withData = 0;
    const sample = points.slice(-200);
    for (const [lat, lon] of sample) {
      const answer = await fetchText(`${uncachedServer.base}/v1/soil/location?latitude=${lat}&longitude=${lon}`);
      const body = JSON.parse(answer.body);
      if (answer.status !== 200 || body.cache.hit !== false) throw new Error(`uncached point answered ${answer.status}, hit ${body.cache?.hit}`);
      if (body.map_units.length > 0) withData++;
    }
    const share = `${Math.round((withData / sample.length) * 100)} % of sampled points fall in a map unit`;
    log(`uncached points: ${share}`);
    const lua = pointsLua(points.slice(0, -200));
    const one = await measure("uncached points c=1", uncachedServer.base + "/", 1, lua);
    rows.push({ scenario: "uncached snapshot point queries, 1 connection", result: one, bodyBytes: NaN, note: share });
    const many = await measure("uncached points", uncachedServer.base + "/", CONNECTIONS, lua);
    rows.push({ scenario: `uncached snapshot point queries, ${CONNECTIONS} connections`, result: many, bodyBytes: NaN, note: "distinct points, CACHE_TTL_SECONDS=0" });
    peaks.push({ server: "Loam, cache off (uncached points)", ...memoryOf(uncachedServer.pid) });
    await uncachedServer.stop();

    // 5. The 500-feature search with the cache off: every request queries the snapshot, normalizes, serializes.
    const denseUncached = await startLoamServer(fresh(join(TMP, "bench-dense-uncached.sqlite")), { env: { LOAM_SNAPSHOT: densePath, CACHE_TTL_SECONDS: "0" } });
    children.push(denseUncached);
    const check = await fetchText(denseUncached.base + PEDONS_500);
    if (check.status === 200 && JSON.parse(check.body).cache.hit === false) {
      for (const connections of [1, CONNECTIONS]) {
        const result = await measure(`pedons500 dense uncached c=${connections}`, denseUncached.base + PEDONS_500, connections);
        rows.push({
          scenario: `\`/v1/pedons\` limit=500, snapshot + synthetic pedons, cache off, ${connections} connection${connections === 1 ? "" : "s"}`,
          result,
          bodyBytes: Buffer.byteLength(check.body),
          note: "CACHE_TTL_SECONDS=0: snapshot query, normalization and serialization on every request",
        });
      }
    }
    peaks.push({ server: "Loam, dense snapshot, cache off (pedons 500)", ...memoryOf(denseUncached.pid) });
    await denseUncached.stop();

    // 6. Uncached distinct points with LOAM_WORKERS=1 and 2 (bench/workers.ts).
    workers = await measureWorkers({ snapshotPath, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS, log, client: () => `198.18.${Math.floor(++runs / 250)}.${runs % 250}` });

    // 7. Cached answers with the entries in SQLite and in Redis (bench/cache-store.ts).
    stores = await measureCacheStores({ snapshotPath, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS, log, client: () => `198.18.${Math.floor(++runs / 250)}.${runs % 250}` });

    // 8. The hot path: each issue-23 route's cached 200 against the baseline, and its 304 (bench/hot-path.ts).
    hot = await measureHotPath({ snapshotPath, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS, log, client: () => `198.18.${Math.floor(++runs / 250)}.${runs % 250}` });
  } finally {
    await stopAll();
  }

  const out = process.env.BENCH_OUT ?? join(ROOT, "bench", "RESULTS.md");
  writeFileSync(out, [report(started, host, rows, peaks), ...(workers.length > 0 ? [...workersSection(workers), ""] : []), ...(stores.length > 0 ? [...cacheStoreSection(stores), ""] : []), ...(hot ? hotPathSection(hot, SECONDS, CONNECTIONS) : [])].join("\n"));
  log(`wrote ${out}`);
}

function report(started: Date, host: ReturnType<typeof machine>, rows: Row[], peaks: Array<{ server: string; peakMb: number; rssMb: number }>): string {
  const find = (prefix: string) => rows.find((r) => r.scenario.startsWith(prefix));
  const cached = find("cached");
  const uncached1 = find("uncached snapshot point queries, 1 ");
  const uncachedMany = find(`uncached snapshot point queries, ${CONNECTIONS}`);
  const dense = rows.find((r) => r.scenario === "`/v1/pedons` limit=500, snapshot + synthetic pedons");
  const dense1 = find("`/v1/pedons` limit=500, snapshot + synthetic pedons, 1 connection");
  const denseOff1 = find("`/v1/pedons` limit=500, snapshot + synthetic pedons, cache off, 1 connection");
  const denseOff = find(`\`/v1/pedons\` limit=500, snapshot + synthetic pedons, cache off, ${CONNECTIONS} connections`);
  const real500 = find("`/v1/pedons` eastern Kansas, limit=500");
  const peak = Math.max(...peaks.filter((p) => p.server.startsWith("Loam")).map((p) => p.peakMb));
  const verdict = (ok: boolean | undefined) => (ok === undefined ? "not measured" : ok ? "**met**" : "**missed**");

  const lines: string[] = [];
  lines.push("# Loam benchmark results", "");
  lines.push(`Written by \`bun run bench\` (bench/run.ts) on ${started.toISOString()}.`, "");
  lines.push("## Machine", "");
  lines.push(`- CPU: ${host.cpu}, ${host.cores} cores`);
  lines.push(`- Memory: ${host.memoryGb} GB`);
  lines.push(`- OS: ${host.os}`);
  lines.push(`- Bun ${host.bun}; wrk ${host.wrk}`);
  lines.push("- Load generator and servers share the machine (loopback, 127.0.0.1); wrk uses one thread.", "");
  lines.push("## How it was run", "");
  lines.push("```sh");
  lines.push("bun run bench                    # BENCH_SECONDS (default 8) and BENCH_CONNECTIONS (default 32) adjust a run");
  lines.push("# Loam, one process per configuration:");
  lines.push("HOST=127.0.0.1 PORT=<free> LOAM_DB=bench/tmp/bench-<name>.sqlite RATE_LIMIT_PER_MINUTE=1000000 TRUST_PROXY=1 \\");
  lines.push("  bun --max-http-header-size=262144 src/cli.ts serve            # + CACHE_TTL_SECONDS=0 for the uncached runs");
  lines.push("# the platform baseline: a bare Bun.serve answering the same pre-serialized bytes per path");
  lines.push("PORT=<free> bun bench/baseline.ts bench/tmp/baseline-bodies.json");
  lines.push(`# each measurement: a ${WARMUP_SECONDS} s warm-up, then`);
  lines.push(`wrk -t1 -c${CONNECTIONS} -d${SECONDS}s --timeout 5s -s bench/tmp/wrk-<scenario>.lua <url>   # the script caps a run at ${MAX_REQUESTS} requests`);
  lines.push("```", "");
  lines.push("Logging is Loam's default (`LOG_LEVEL=info`, one JSON access-log line per request, to /dev/null). The rate limiter counts");
  lines.push("every request: RATE_LIMIT_PER_MINUTE=1000000 (the most the configuration accepts) with TRUST_PROXY=1, and each wrk run sends");
  lines.push("its own `X-Forwarded-For`, so no run is refused for the requests of another. Loopback figures on a shared VM drift by");
  lines.push(`tens of percent within minutes, so each cached scenario is measured in ${PAIRED_ROUNDS} rounds in which Loam and the baseline take turns;`);
  lines.push("the ratio is the median of the rounds' ratios, and the req/s and latencies shown are each side's median run. For a");
  lines.push("comparison with an earlier release, `bun run bench:ab` runs both at the same time (bench/AB.md).", "");
  lines.push("## Figures", "");
  lines.push("| scenario | conns | requests | req/s | p50 ms | p99 ms | body bytes | baseline req/s (same bytes) | ratio | notes |");
  lines.push("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  for (const row of rows) {
    const r = row.result;
    lines.push(
      `| ${row.scenario} | ${r.connections} | ${r.requests} | ${fmt(r.rps, 0)} | ${fmt(r.p50Ms)} | ${fmt(r.p99Ms)} | ${Number.isFinite(row.bodyBytes) ? row.bodyBytes : "varies"} | ${row.baseline ? fmt(row.baseline.rps, 0) : "–"} | ${row.baseline ? `${fmt(ratio(row) * 100, 0)} %` : "–"} | ${[row.note, row.ratios ? pairedNote(row.ratios) : "", r.errors ? `${r.errors} errors` : "", r.capped ? "request cap reached" : ""].filter(Boolean).join("; ")} |`,
    );
  }
  const baselines = rows.filter((r) => r.baseline);
  lines.push("", "Baseline runs (bare Bun.serve, same bytes, same wrk settings):", "");
  lines.push("| body | req/s | p50 ms | p99 ms |", "|---|---:|---:|---:|");
  for (const row of baselines) lines.push(`| ${row.scenario} | ${fmt(row.baseline!.rps, 0)} | ${fmt(row.baseline!.p50Ms)} | ${fmt(row.baseline!.p99Ms)} |`);
  lines.push("", "Peak resident memory (VmHWM from /proc/<pid>/status at the end of the runs on that process):", "");
  lines.push("| process | peak RSS MB | RSS at end MB |", "|---|---:|---:|");
  for (const p of peaks) lines.push(`| ${p.server} | ${fmt(p.peakMb, 1)} | ${fmt(p.rssMb, 1)} |`);
  lines.push("", "## Targets (2-core machine)", "");
  lines.push("| target | figure | verdict |", "|---|---|---|");
  if (cached) {
    lines.push(`| cached location ≥ 50 % of the baseline's throughput at ${CONNECTIONS} connections | ${fmt(ratio(cached) * 100, 0)} % (${fmt(cached.result.rps, 0)} vs ${fmt(cached.baseline!.rps, 0)} req/s) | ${verdict(ratio(cached) >= TARGETS.cachedRatio)} |`);
    lines.push(`| cached location p99 < 10 ms at ${CONNECTIONS} connections | ${fmt(cached.result.p99Ms)} ms | ${verdict(cached.result.p99Ms < TARGETS.cachedP99Ms)} |`);
  }
  const ogcItems = find("cached OGC items");
  if (ogcItems) lines.push(`| cached OGC items of a 0.02° map-unit box with two summaries ≥ 50 % of the baseline | ${fmt(ratio(ogcItems) * 100, 0)} % (${fmt(ogcItems.result.rps, 0)} vs ${fmt(ogcItems.baseline!.rps, 0)} req/s) | ${verdict(ratio(ogcItems) >= TARGETS.cachedRatio)} |`);
  if (uncached1) lines.push(`| uncached snapshot point query p50 < 5 ms | ${fmt(uncached1.result.p50Ms)} ms at 1 connection; ${uncachedMany ? `${fmt(uncachedMany.result.p50Ms)} ms at ${CONNECTIONS}` : ""} | ${verdict(uncached1.result.p50Ms < TARGETS.uncachedP50Ms)} (1 connection)${uncachedMany ? `, ${verdict(uncachedMany.result.p50Ms < TARGETS.uncachedP50Ms)} (${CONNECTIONS})` : ""} |`);
  if (dense) {
    lines.push(
      `| 500-feature pedon search p50 < 20 ms | ${dense1 ? `${fmt(dense1.result.p50Ms)} ms at 1 connection; ` : ""}${fmt(dense.result.p50Ms)} ms at ${CONNECTIONS} (${dense.note}) | ${dense1 ? `${verdict(dense1.result.p50Ms < TARGETS.pedons500P50Ms)} (1 connection), ` : ""}${verdict(dense.result.p50Ms < TARGETS.pedons500P50Ms)} (${CONNECTIONS}) |`,
    );
  }
  if (denseOff1 && denseOff) {
    lines.push(
      `| 500-feature pedon search p50 < 20 ms, cache off | ${fmt(denseOff1.result.p50Ms)} ms at 1 connection; ${fmt(denseOff.result.p50Ms)} ms at ${CONNECTIONS} | ${verdict(denseOff1.result.p50Ms < TARGETS.pedons500P50Ms)} (1 connection), ${verdict(denseOff.result.p50Ms < TARGETS.pedons500P50Ms)} (${CONNECTIONS}) |`,
    );
  }
  if (!dense) {
    if (real500) lines.push(`| 500-feature pedon search p50 < 20 ms | ${fmt(real500.result.p50Ms)} ms (${real500.note}) | ${verdict(real500.result.p50Ms < TARGETS.pedons500P50Ms)} |`);
    else lines.push("| 500-feature pedon search p50 < 20 ms | – | not measured (the pedon endpoints did not answer 200) |");
  }
  lines.push(`| peak RSS < 200 MB | ${fmt(peak, 1)} MB (largest Loam process) | ${verdict(peak < TARGETS.peakRssMb)} |`);
  lines.push("");
  return `${lines.join("\n")}\n`;
}

await main();
