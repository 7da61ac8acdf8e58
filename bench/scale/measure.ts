/**
 * What the scale benches (./run.ts: one state; ./mirror.ts: the national mirror) measure with: an
 * import by `loam import` (wall time, the importer's peak RSS, the bytes it adds), start-up to the first
 * /health, and each query's cold latency and server CPU (/proc).
 */
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { cpuTicks, memoryOf, startLoamServer } from "../lib";

export const ROOT = resolve(import.meta.dir, "../..");
export const DATASETS = join(ROOT, "datasets");
const ROUNDS = Number(process.env.SCALE_ROUNDS ?? 40);

export interface Import { source: string; seconds: number; peakMb: number; bytes: number }

/**
 * `loam import <provider> <path> --snapshot <out>`, sampling the child's RSS: wall time, peak RSS, and
 * the bytes the file grew by (an import into an existing file copies it first: part of its time).
 */
export async function importInto(provider: string, paths: string[], out: string, dataDir: string, source: string): Promise<Import> {
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

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

/** rssGrowthMb: how much the server's RSS grew across this query's requests (what it leaves held). */
export interface Measured { p50: number; p95: number; cpuMs: number; rssGrowthMb: number; status: number; bytes: number }

/** A query's path in round i, and optionally a check of its answer's body (throws when the answer is not the one asked). */
export type Query = ((i: number) => string) | { path: (i: number) => string; check(body: unknown, i: number): void };

/**
 * Each query's rounds run one after another, query by query: what a request leaves to collect (a decade of
 * daily values leaves ~100 MB of garbage) is paid by the requests of its own kind, not by whichever
 * query followed it in an interleaved round (docs/benchmarks.md, "State and national scale").
 */
export async function measure(base: string, pid: number, qs: Record<string, Query>): Promise<Record<string, Measured>> {
  const times: Record<string, number[]> = {};
  const cpu: Record<string, number> = {};
  const last: Record<string, { status: number; bytes: number }> = {};
  const grew: Record<string, number> = {};
  for (const [name, query] of Object.entries(qs)) {
    const path = typeof query === "function" ? query : query.path;
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
      if (typeof query !== "function") query.check(JSON.parse(new TextDecoder().decode(body)), round);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([name, t]) => [name, { p50: quantile(t, 0.5), p95: quantile(t, 0.95), cpuMs: cpu[name]! / ROUNDS, rssGrowthMb: grew[name]!, ...last[name]! }]));
}

/** Five starts on `snapshot` (a file or a mirror's directory) to the first 200 from /health, seconds; LOAM_DB files under `stateDir`. */
export async function startups(snapshot: string, stateDir: string): Promise<number[]> {
  const seconds: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const child = await startLoamServer(join(stateDir, `state-${i}.sqlite`), { env: { LOAM_SNAPSHOT: snapshot, CACHE_TTL_SECONDS: "0" } });
    seconds.push((performance.now() - started) / 1000);
    await child.stop();
  }
  return seconds;
}
