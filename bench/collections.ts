/**
 * `bun bench/collections.ts`: the polygon collections, cached, against a bare Bun.serve of the same
 * bytes (docs/decisions.md#derived-once): the OGC items of a 0.02° map-unit box with two summary
 * properties, and GET /v1/soil/mapunits of the same box with property=clay (ratio before/after).
 * Paired rounds as in bench/run.ts (Loam and the baseline take turns; the median ratio is kept), and
 * a cached 304 (If-None-Match) rate beside each.
 *
 * Environment: BENCH_SECONDS (default 5), BENCH_CONNECTIONS (default 32), BENCH_CWD (another checkout
 * to run, e.g. the commit before, for a before/after figure: scenarios it does not serve are skipped).
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT, TMP, runWrk, startBaseline, startLoamServer, type Child, type WrkResult } from "./lib";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = 3;
const BOX = "-94.369608,41.934131,-94.349608,41.954131";
export const COLLECTION_SCENARIOS = [
  { name: "ogcItems", title: "OGC items, 0.02° map-unit box, properties=clay,ph", path: `/ogc/collections/mapunits/items?bbox=${BOX}&properties=clay,ph&limit=1000` },
  { name: "mapunitsClay", title: "`/v1/soil/mapunits` 0.02° box, property=clay", path: `/v1/soil/mapunits?bbox=${BOX}&property=clay` },
] as const;
/** A reference measured in the same session: the pedon detail (bench/RESULTS.md reports its ratio). */
const REFERENCE = { name: "pedon", title: "reference: `/v1/pedons/02N0245`", path: "/v1/pedons/02N0245" } as const;

const log = (message: string) => process.stderr.write(`bench: ${message}\n`);
let runs = 0;

async function measure(label: string, url: string, headers?: Record<string, string>): Promise<WrkResult> {
  runs++;
  const client = `198.19.${Math.floor(runs / 250)}.${runs % 250}`;
  await runWrk(url, { label: `${label}-warmup`, connections: CONNECTIONS, durationSeconds: 1, maxRequests: 2_000_000, client, headers });
  const result = await runWrk(url, { label, connections: CONNECTIONS, durationSeconds: SECONDS, maxRequests: 2_000_000, client, headers });
  log(`${label}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, errors ${result.errors}`);
  return result;
}

async function main(): Promise<void> {
  mkdirSync(TMP, { recursive: true });
  const cwd = process.env.BENCH_CWD;
  const db = join(TMP, "bench-collections.sqlite");
  for (const suffix of ["", "-wal", "-shm"]) if (existsSync(db + suffix)) rmSync(db + suffix);
  const children: Child[] = [];
  try {
    const loam = await startLoamServer(db, { cwd, env: { LOG_LEVEL: "info", RATE_LIMIT_PER_MINUTE: "1000000" } });
    children.push(loam);
    const bodies: Record<string, string> = {};
    const tags: Record<string, string> = {};
    const scenarios = [...COLLECTION_SCENARIOS, REFERENCE];
    for (const s of scenarios) {
      await (await fetch(loam.base + s.path)).text();
      const response = await fetch(loam.base + s.path);
      const body = await response.text();
      if (response.status !== 200 || !JSON.parse(body).cache?.hit) {
        log(`${s.path}: ${response.status}, not a cached 200 here; skipped`);
        continue;
      }
      bodies[`/${s.name}`] = body;
      tags[s.name] = response.headers.get("etag") ?? "";
      log(`${s.title}: ${Buffer.byteLength(body)} bytes`);
    }
    const baseline = await startBaseline(bodies);
    children.push(baseline);
    const lines = [`| scenario | body bytes | Loam req/s | baseline req/s | ratio (median of ${ROUNDS} paired rounds) | 304 req/s |`, "|---|---:|---:|---:|---|---:|"];
    for (const s of scenarios) {
      if (!bodies[`/${s.name}`]) continue;
      const ratios: number[] = [];
      const loamRuns: WrkResult[] = [];
      const baseRuns: WrkResult[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const ours = () => measure(`${s.name} (round ${round + 1})`, loam.base + s.path);
        const theirs = () => measure(`baseline ${s.name} (round ${round + 1})`, `${baseline.base}/${s.name}`);
        // The order alternates per round: loopback throughput drifts within minutes.
        let l: WrkResult, b: WrkResult;
        if (round % 2 === 0) {
          l = await ours();
          b = await theirs();
        } else {
          b = await theirs();
          l = await ours();
        }
        loamRuns.push(l);
        baseRuns.push(b);
        ratios.push(l.rps / b.rps);
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const notModified = await measure(`${s.name} 304`, loam.base + s.path, { "If-None-Match": tags[s.name]! });
      lines.push(
        `| ${s.title} | ${Buffer.byteLength(bodies[`/${s.name}`]!)} | ${median(loamRuns.map((r) => r.rps)).toFixed(0)} | ${median(baseRuns.map((r) => r.rps)).toFixed(0)} | ${(median(ratios) * 100).toFixed(0)} % (${ratios.map((r) => `${(r * 100).toFixed(0)} %`).join(", ")}) | ${notModified.rps.toFixed(0)} |`,
      );
    }
    console.log(`${cwd ? `checkout ${cwd}` : `checkout ${ROOT}`}, ${CONNECTIONS} connections, ${SECONDS} s per run\n${lines.join("\n")}`);
  } finally {
    for (const child of children) await child.stop();
  }
}

if (import.meta.main) await main();
