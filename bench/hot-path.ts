/**
 * Cached answers on the hot path (issues 23 and 34's targets): each route's cached 200 against a bare
 * Bun.serve sending the same bytes (paired rounds, the median ratio kept, as bench/run.ts does), and
 * each data route's 304 (If-None-Match with its own tag) against its own 200 in the same round.
 * Every request comes from another client address than the one before it (X-Forwarded-For, TRUST_PROXY=1;
 * BENCH_CLIENT_POOL addresses in turn, default 1,024; 0: a new address every time), so no run is polluted
 * by 429s. One Loam process (cache on, the snapshot), one baseline process, wrk -t1 on loopback, bounded in
 * time and requests. Both servers are pinned to CPU 1 and wrk to CPU 0 (bench/lib.ts `pin`; BENCH_PIN=0
 * leaves the scheduler to place them).
 *
 * Part of `bun run bench` (bench/run.ts); alone, for a quick check:
 *   BENCH_SECONDS=4 bun bench/hot-path.ts          # prints the figures as a Markdown table, writes nothing
 *   BENCH_ROUTES=health,mapunit                     # only these routes (HOT_ROUTES names)
 *   BENCH_LOAM_CHECKOUT=/tmp/loam-at-<commit>       # serve another checkout (git archive <commit> | tar -x; node_modules and data linked)
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { TMP, cpuTicks, pin, runWrk, standaloneBench, startBaseline, startLoamServer, type Child, type WrkResult } from "./lib";

export interface HotRoute {
  name: string;
  path: string;
  /** A data route: its 304 is measured too. */
  conditional: boolean;
}

export const HOT_ROUTES: HotRoute[] = [
  { name: "health", path: "/health", conditional: false },
  { name: "location", path: "/v1/soil/location?latitude=41.944131&longitude=-94.359608", conditional: true },
  { name: "pedons100", path: "/v1/pedons?bbox=-96,38.5,-95,39.5&limit=100", conditional: true },
  { name: "pedon", path: "/v1/pedons/02N0245", conditional: true },
  { name: "mapunit", path: "/v1/soil/mapunits/2765528?properties=aws,drainage_class,hydrologic_group&depth_bottom_cm=100", conditional: true },
  { name: "summary", path: "/v1/soil/summary?latitude=41.944131&longitude=-94.359608&properties=clay&depth_bottom_cm=30", conditional: true },
  { name: "mapunits", path: "/v1/soil/mapunits?bbox=-94.369608,41.934131,-94.349608,41.954131&property=clay", conditional: true },
  // Issue #34's list: the area report and the site box, cached.
  { name: "aoi", path: "/v1/soil/aoi?bbox=-94.361846,41.943158,-94.358198,41.945788&properties=clay,drainage_class&depth_bottom_cm=30", conditional: true },
  { name: "sites", path: "/v1/geochem/sites?bbox=-96.7,40.3,-90.1,43.6&property=arsenic&limit=100", conditional: true },
  // Issue #35's target: the cached modeled answer at the offline clip point, at least 0.5 of the baseline by CPU per request.
  { name: "modeled", path: "/v1/soil/modeled?latitude=18.65&longitude=-71.6&properties=clay,silt&depth_bottom_cm=15", conditional: true },
  // Issue #36: the station box and a year of hourly values (8,760 rows), cached.
  { name: "stations", path: "/v1/stations?bbox=-125,24,-66,50&limit=100", conditional: true },
  { name: "series", path: "/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&start=2010-01-01&end=2010-12-31", conditional: true },
];

export interface HotRow {
  route: HotRoute;
  bytes: number;
  /** Loam's 200 and the baseline's, per round; the row's figures are the medians. */
  ratios: number[];
  rps: number;
  baselineRps: number;
  /** Server CPU per request (µs, utime + stime over the runs), Loam's and the baseline's: steadier than req/s on a busy machine. */
  cpuUs: number;
  baselineCpuUs: number;
  /** The 304 over the 200, per round (data routes). */
  notModified?: { rps: number; ratios: number[]; cpuUs: number };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface HotPathOptions {
  snapshotPath: string;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  rounds?: number;
  log: (message: string) => void;
  client: (run: string) => string;
  only?: string[];
  /** Another checkout to serve instead of this one (an earlier commit, for before/after figures). */
  loamCheckout?: string;
  /** Pin both servers to CPU 1 and wrk to CPU 0 (default true). */
  pinned?: boolean;
}

export async function measureHotPath(options: HotPathOptions): Promise<{ rows: HotRow[]; pinned: boolean }> {
  const rounds = options.rounds ?? 3;
  const db = join(TMP, "bench-hot-path.sqlite");
  for (const suffix of ["", "-wal", "-shm"]) if (existsSync(db + suffix)) rmSync(db + suffix);
  const children: Child[] = [];
  try {
    const loam = await startLoamServer(db, { env: { LOAM_SNAPSHOT: options.snapshotPath, RATE_LIMIT_PER_MINUTE: "1000000" }, cwd: options.loamCheckout });
    children.push(loam);
    const routes = HOT_ROUTES.filter((r) => !options.only || options.only.includes(r.name));
    const bodies: Record<string, string> = {};
    const tags: Record<string, string> = {};
    // The representation wrk asks for (it sends no Accept-Encoding), so the 304 runs send the tag a
    // client holding that representation would (fetch would otherwise ask for, and tag, brotli).
    const identity = { headers: { "accept-encoding": "identity" } };
    for (const route of routes) {
      await fetch(loam.base + route.path, identity).then((r) => r.arrayBuffer()); // a miss fills the cache
      const response = await fetch(loam.base + route.path, identity);
      const body = await response.text();
      if (response.status !== 200) throw new Error(`${route.path} answered ${response.status}`);
      if (route.conditional && JSON.parse(body).cache?.hit !== true) throw new Error(`${route.path} is not a cache hit`);
      if (response.headers.get("content-encoding") !== null) throw new Error(`${route.path} was encoded (${response.headers.get("content-encoding")})`);
      bodies[`/${route.name}`] = body;
      tags[route.name] = response.headers.get("etag") ?? "";
    }
    const baseline = await startBaseline(bodies);
    children.push(baseline);
    const pinned = (options.pinned ?? true) && pin(loam.pid, 1) && pin(baseline.pid, 1);
    const cpu = pinned ? 0 : undefined;
    const run = async (label: string, url: string, lua?: string, pid?: number, spent?: { ticks: number; requests: number }): Promise<WrkResult> => {
      const before = pid ? cpuTicks(pid) : 0;
      const result = await runWrk(url, { label, connections: options.connections, durationSeconds: options.seconds, maxRequests: 2_000_000, client: options.client(label), clientPerRequest: process.env.BENCH_CLIENT_PER_REQUEST !== "0", clientPool: Number(process.env.BENCH_CLIENT_POOL ?? 1024), pathsLua: lua, cpu });
      if (pid && spent) {
        spent.ticks += cpuTicks(pid) - before;
        spent.requests += result.requests;
      }
      return result;
    };
    const warm = (label: string, url: string, lua?: string) =>
      runWrk(url, { label: `${label}-warmup`, connections: options.connections, durationSeconds: options.warmupSeconds, maxRequests: 2_000_000, client: options.client(label), clientPerRequest: process.env.BENCH_CLIENT_PER_REQUEST !== "0", clientPool: Number(process.env.BENCH_CLIENT_POOL ?? 1024), pathsLua: lua, cpu });
    const rows: HotRow[] = [];
    for (const route of routes) {
      const loamUrl = loam.base + route.path;
      const baseUrl = `${baseline.base}/${route.name}`;
      const fixed = `local fixed = ${JSON.stringify(route.path)}\nfunction next_path() return fixed end`;
      const conditionalLua = `wrk.headers["If-None-Match"] = ${JSON.stringify(tags[route.name])}\n${fixed}`;
      await warm(route.name, loamUrl);
      await warm(`baseline ${route.name}`, baseUrl);
      if (route.conditional) await warm(`${route.name} 304`, loamUrl, conditionalLua);
      const loamRps: number[] = [];
      const baseRps: number[] = [];
      const notModifiedRps: number[] = [];
      const loamCpu = { ticks: 0, requests: 0 };
      const baseCpu = { ticks: 0, requests: 0 };
      const notModifiedCpu = { ticks: 0, requests: 0 };
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? ["base", "loam", "304"] : ["304", "loam", "base"];
        for (const side of order) {
          if (side === "base") baseRps.push((await run(`baseline ${route.name} r${round}`, baseUrl, undefined, baseline.pid, baseCpu)).rps);
          else if (side === "loam") loamRps.push((await run(`${route.name} r${round}`, loamUrl, undefined, loam.pid, loamCpu)).rps);
          else if (route.conditional) {
            const result = await run(`${route.name} 304 r${round}`, loamUrl, conditionalLua, loam.pid, notModifiedCpu);
            if (result.errors > 0) options.log(`${route.name} 304: ${result.errors} errors`);
            notModifiedRps.push(result.rps);
          }
        }
      }
      const row: HotRow = {
        route,
        bytes: Buffer.byteLength(bodies[`/${route.name}`]!),
        ratios: loamRps.map((rps, i) => rps / baseRps[i]!),
        rps: median(loamRps),
        baselineRps: median(baseRps),
        cpuUs: (loamCpu.ticks * 10_000) / loamCpu.requests,
        baselineCpuUs: (baseCpu.ticks * 10_000) / baseCpu.requests,
        ...(route.conditional ? { notModified: { rps: median(notModifiedRps), ratios: notModifiedRps.map((rps, i) => rps / loamRps[i]!), cpuUs: (notModifiedCpu.ticks * 10_000) / notModifiedCpu.requests } } : {}),
      };
      options.log(`${route.name}: ${row.rps.toFixed(0)} vs ${row.baselineRps.toFixed(0)} req/s, ratio ${(median(row.ratios) * 100).toFixed(0)} %, CPU ${row.cpuUs.toFixed(0)} vs ${row.baselineCpuUs.toFixed(0)} µs/request${row.notModified ? `; 304 ${row.notModified.rps.toFixed(0)} req/s, CPU ${row.notModified.cpuUs.toFixed(0)} µs/request (${(median(row.notModified.ratios) * 100).toFixed(0)} % of its 200)` : ""}`);
      rows.push(row);
    }
    return { rows, pinned };
  } finally {
    for (const child of children) await child.stop();
  }
}

const pct = (r: number) => `${(r * 100).toFixed(0)} %`;

export function hotPathSection({ rows, pinned }: { rows: HotRow[]; pinned: boolean }, seconds: number, connections: number): string[] {
  return [
    "## Hot path: cached answers and their 304s",
    "",
    `One Loam process (cache on), a bare Bun.serve of the same bytes, wrk -t1 -c${connections} -d${seconds}s per run, rounds in turn${pinned ? ", both servers pinned to CPU 1 and wrk to CPU 0 (taskset)" : ", nothing pinned"};`,
    "ratio: Loam's 200 over the baseline's (median of the rounds); 304: the same request with If-None-Match of its own tag, over Loam's 200 in the same round.",
    "CPU: each server's utime + stime over its measured runs per request (/proc/<pid>/stat); their ratio (baseline over Loam) is steadier than req/s on a busy machine.",
    "",
    "| route | body bytes | req/s | baseline req/s | ratio (rounds) | CPU µs/request (baseline) | CPU ratio | 304 req/s | 304 / 200 (rounds) | 304 CPU µs/request |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (row) =>
        `| \`${row.route.path}\` | ${row.bytes} | ${row.rps.toFixed(0)} | ${row.baselineRps.toFixed(0)} | ${pct(median(row.ratios))} (${row.ratios.map(pct).join(", ")}) | ${row.cpuUs.toFixed(0)} (${row.baselineCpuUs.toFixed(0)}) | ${pct(row.baselineCpuUs / row.cpuUs)} | ${row.notModified ? row.notModified.rps.toFixed(0) : "–"} | ${row.notModified ? `${pct(median(row.notModified.ratios))} (${row.notModified.ratios.map(pct).join(", ")})` : "–"} | ${row.notModified ? row.notModified.cpuUs.toFixed(0) : "–"} |`,
    ),
    "",
  ];
}

if (import.meta.main) {
  const bench = standaloneBench();
  let runs = 0;
  const only = process.env.BENCH_ROUTES ? process.env.BENCH_ROUTES.split(",") : undefined;
  const measured = await measureHotPath({ ...bench, only, loamCheckout: process.env.BENCH_LOAM_CHECKOUT, pinned: process.env.BENCH_PIN !== "0", client: () => `198.19.${Math.floor(++runs / 250)}.${runs % 250}` });
  console.log(hotPathSection(measured, bench.seconds, bench.connections).join("\n"));
  process.exit(0);
}
