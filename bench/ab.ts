/**
 * `bun run bench:ab [<git ref>]`: this checkout against an earlier release (default v0.2.0, ac20dde),
 * both serving the same cached answers at the same time, on loopback, bounded in requests and time.
 *
 * A loopback figure on a shared VM drifts by tens of percent within minutes, so two releases measured
 * one after the other cannot be compared. Here both servers run side by side and take turns: each
 * round gives every scenario one short wrk run per server, in alternating order, and the server's own
 * CPU time per request is read from /proc (utime + stime of the process). Medians and minimums over
 * the rounds are reported; the minimum is the least disturbed run. Writes bench/AB.md.
 *
 * The earlier release is checked out with `git worktree` under $TMPDIR/loam-ab/<commit>, shares
 * this checkout's node_modules, and builds its own snapshot from the same data directory.
 * Environment: BENCH_AB_ROUNDS (default 11), BENCH_AB_SECONDS (per run, default 1), BENCH_CONNECTIONS
 * (default 32), LOAM_DATA_DIR, BENCH_AB_ROUTES (names of bench/hot-path.ts's routes, comma-separated,
 * instead of the scenarios below). Every request is counted by the rate limit and allowed
 * (RATE_LIMIT_PER_MINUTE=1000000, each run its own client), so each side sends its 200s.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { HOT_ROUTES } from "./hot-path";
import { ROOT, TMP, cpuTicks, machine, pin, runWrk, startLoamServer, wrkVersion, type Child } from "./lib";

const REF = process.argv[2] ?? "ac20dde";
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 11);
const SECONDS = Number(process.env.BENCH_AB_SECONDS ?? 1);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DATA_DIR = resolve(ROOT, process.env.LOAM_DATA_DIR ?? "datasets");
const MAX_REQUESTS = 1_000_000;

const DEFAULT_SCENARIOS = [
  { label: "cached `/v1/soil/location` (IA073 known point)", path: "/v1/soil/location?latitude=41.944131&longitude=-94.359608" },
  { label: "`/v1/pedons` eastern Kansas, limit=100", path: "/v1/pedons?bbox=-97,38,-95,40&limit=100" },
  { label: "`/v1/pedons` eastern Kansas, limit=500", path: "/v1/pedons?bbox=-97,38,-95,40&limit=500" },
  { label: "`/v1/pedons/02N0245`", path: "/v1/pedons/02N0245" },
];
const SCENARIOS = process.env.BENCH_AB_ROUTES
  ? process.env.BENCH_AB_ROUTES.split(",").map((name) => {
      const route = HOT_ROUTES.find((r) => r.name === name);
      if (!route) throw new Error(`BENCH_AB_ROUTES: no hot-path route named ${name} (${HOT_ROUTES.map((r) => r.name).join(", ")})`);
      return { label: `\`${route.path}\``, path: route.path };
    })
  : DEFAULT_SCENARIOS;

function log(message: string): void {
  process.stderr.write(`bench:ab: ${message}\n`);
}

function run(command: string[], cwd: string): string {
  const result = Bun.spawnSync(command, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, LOAM_DATA_DIR: DATA_DIR } });
  if (result.exitCode !== 0) throw new Error(`${command.join(" ")} failed in ${cwd}:\n${result.stderr.toString()}`);
  return result.stdout.toString().trim();
}

/** The earlier release, checked out once under bench/tmp, with its own snapshot. */
function checkout(ref: string): { dir: string; commit: string; version: string } {
  const commit = run(["git", "rev-parse", "--short", `${ref}^{commit}`], ROOT);
  // Outside the repository: `bun test` and tsc would otherwise find the release's own files.
  const dir = join(tmpdir(), "loam-ab", commit);
  if (!existsSync(join(dir, "src", "cli.ts"))) {
    mkdirSync(join(tmpdir(), "loam-ab"), { recursive: true });
    run(["git", "worktree", "prune"], ROOT);
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    log(`checking out ${ref} (${commit}) in ${dir}`);
    run(["git", "worktree", "add", "--detach", dir, commit], ROOT);
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  }
  if (!existsSync(join(dir, "data", "snapshot.sqlite"))) {
    log(`building ${commit}'s snapshot from ${DATA_DIR}`);
    run([process.execPath, "src/cli.ts", "snapshot", "build"], dir);
  }
  const version = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version as string;
  return { dir, commit, version };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

interface Side {
  name: string;
  server: Child;
  bytes: Record<string, number>;
  rps: Record<string, number[]>;
  cpuUs: Record<string, number[]>;
}

async function main() {
  const before = checkout(REF);
  const current = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;
  const head = run(["git", "rev-parse", "--short", "HEAD"], ROOT);
  mkdirSync(TMP, { recursive: true });
  const env = { LOAM_DATA_DIR: DATA_DIR, RATE_LIMIT_PER_MINUTE: "1000000" };
  const pinned = pin(process.pid, 0);
  const sides: Side[] = [];
  try {
    for (const [name, cwd] of [[`${before.version} (${before.commit})`, before.dir], [`${current} (${head}, this checkout)`, ROOT]] as const) {
      const db = join(TMP, `ab-${name.replace(/[^a-z0-9.]+/gi, "_")}.sqlite`);
      for (const suffix of ["", "-wal", "-shm"]) rmSync(db + suffix, { force: true });
      const server = await startLoamServer(db, { cwd, env });
      if (pinned) pin(server.pid, 1);
      sides.push({ name, server, bytes: {}, rps: {}, cpuUs: {} });
    }
    for (const side of sides) {
      for (const { path } of SCENARIOS) {
        const response = await fetch(`${side.server.base}${path}`, { headers: { "X-Forwarded-For": "10.0.0.1" } });
        if (response.status !== 200) throw new Error(`${side.name} answered ${response.status} to ${path}`);
        side.bytes[path] = (await response.arrayBuffer()).byteLength;
        await runWrk(`${side.server.base}${path}`, { label: "ab-warmup", connections: CONNECTIONS, durationSeconds: SECONDS, maxRequests: MAX_REQUESTS, client: "10.0.0.2" });
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const { path } of SCENARIOS) {
        // Alternate which release goes first, so neither always meets the same moment of drift.
        for (const side of round % 2 ? [...sides].reverse() : sides) {
          const ticks = cpuTicks(side.server.pid);
          const result = await runWrk(`${side.server.base}${path}`, { label: "ab", connections: CONNECTIONS, durationSeconds: SECONDS, maxRequests: MAX_REQUESTS, client: `10.1.${round}.${sides.indexOf(side)}` });
          if (result.errors > 0) throw new Error(`${side.name}: ${result.errors} errors on ${path}`);
          (side.rps[path] ??= []).push(result.rps);
          (side.cpuUs[path] ??= []).push(((cpuTicks(side.server.pid) - ticks) * 10_000) / result.requests);
        }
      }
      log(`round ${round + 1}/${ROUNDS} done`);
    }
  } finally {
    await Promise.all(sides.map((side) => side.server.stop()));
  }
  const [a, b] = sides as [Side, Side];
  const rows = SCENARIOS.map(({ label, path }) => {
    const cpu = (side: Side) => `${median(side.cpuUs[path]!).toFixed(1)} (min ${Math.min(...side.cpuUs[path]!).toFixed(1)})`;
    const rps = (side: Side) => Math.round(median(side.rps[path]!)).toLocaleString("en-US");
    const change = (median(b.cpuUs[path]!) / median(a.cpuUs[path]!) - 1) * 100;
    return `| ${label} | ${a.bytes[path]} / ${b.bytes[path]} | ${cpu(a)} | ${cpu(b)} | ${change >= 0 ? "+" : ""}${change.toFixed(0)} % | ${rps(a)} | ${rps(b)} |`;
  });
  const m = machine();
  const text = `# Same-time A/B: ${a.name} against ${b.name}

Written by \`bun run bench:ab ${REF}\` (bench/ab.ts) on ${new Date().toISOString()}.
${m.cpu}, ${m.cores} cores; Bun ${Bun.version}; wrk ${wrkVersion() ?? "?"}. Both servers ran at the same time on 127.0.0.1
(LOG_LEVEL=info, access log to /dev/null, rate limit counting every request)${pinned ? ", the servers pinned to CPU 1 and wrk to CPU 0 (taskset)" : ", nothing pinned (no taskset or one core)"}; ${ROUNDS} rounds, each giving every
scenario one ${SECONDS} s run of \`wrk -t1 -c${CONNECTIONS}\` per server, in alternating order. CPU is the server process's
utime + stime per request (from /proc), median over the rounds, the least disturbed round in brackets; req/s is the
median of the same runs (it also carries the load generator's share of the machine).

| cached scenario | body bytes (before / after) | before: CPU µs per request | after: CPU µs per request | CPU change | before req/s | after req/s |
|---|---:|---:|---:|---:|---:|---:|
${rows.join("\n")}
`;
  writeFileSync(join(ROOT, "bench", "AB.md"), text);
  process.stdout.write(text);
}

await main();
