/**
 * Benchmark helpers: child processes on 127.0.0.1 (Loam and the bare-platform baseline), a bounded
 * wrk run with machine-readable results, the peak RSS of a process, and facts about the machine.
 * Nothing here touches the network beyond loopback.
 */
import { cpus, totalmem } from "node:os";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";
import { freePort, spawnLoam } from "../test/support/spawn";

export { freePort };

export const ROOT = resolve(import.meta.dir, "..");
export const TMP = join(ROOT, "bench", "tmp");

export interface Child {
  pid: number;
  base: string;
  proc: Subprocess;
  stop(): Promise<void>;
}

/** Wait until `url` answers 200, or fail after `timeoutMs`. */
export async function waitReady(url: string, proc: Subprocess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`process ${proc.pid} exited with ${proc.exitCode} before it was ready`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await Bun.sleep(100);
  }
  throw new Error(`${url} was not ready within ${timeoutMs} ms`);
}

async function stopChild(proc: Subprocess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  proc.kill("SIGTERM");
  const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(5000).then(() => false)]);
  if (!exited) {
    proc.kill("SIGKILL");
    await proc.exited;
  }
}

export interface LoamOptions {
  env?: Record<string, string>;
  /** Another checkout to run instead of this one (bench/ab.ts). */
  cwd?: string;
  /** Where the server's stdout/stderr go (default: discarded). */
  logFile?: string;
}

/** `bun --max-http-header-size=262144 src/cli.ts serve` on 127.0.0.1 and a free port. */
export async function startLoamServer(dbPath: string, options: LoamOptions = {}): Promise<Child> {
  const { proc, base } = spawnLoam({
    env: {
      LOAM_DB: dbPath,
      // Each wrk run names its own client in X-Forwarded-For, so no run spends another's budget.
      TRUST_PROXY: "1",
      ...options.env,
    },
    stdout: options.logFile ? Bun.file(options.logFile) : "ignore",
    stderr: options.logFile ? Bun.file(`${options.logFile}.err`) : "ignore",
    cwd: options.cwd,
  });
  try {
    await waitReady(`${base}/health`, proc);
  } catch (error) {
    await stopChild(proc);
    throw error;
  }
  return { pid: proc.pid, base, proc, stop: () => stopChild(proc) };
}

/** The bare platform: `Bun.serve` answering each path with a fixed pre-serialized body (bench/baseline.ts). */
export async function startBaseline(bodies: Record<string, string>): Promise<Child> {
  const port = freePort();
  const manifest = join(TMP, "baseline-bodies.json");
  const files: Record<string, string> = {};
  for (const [path, body] of Object.entries(bodies)) {
    const file = join(TMP, `baseline-${path.replace(/[^a-z0-9]+/gi, "_")}.json`);
    writeFileSync(file, body);
    files[path] = file;
  }
  writeFileSync(manifest, JSON.stringify(files));
  const proc = Bun.spawn([process.execPath, "bench/baseline.ts", manifest], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", PORT: String(port) },
    stdout: "ignore",
    stderr: "inherit",
  });
  const base = `http://127.0.0.1:${port}`;
  await waitReady(`${base}/health`, proc, 20_000);
  return { pid: proc.pid, base, proc, stop: () => stopChild(proc) };
}

/** Peak resident set size (VmHWM) and current RSS (VmRSS) of a process, in MB. */
export function memoryOf(pid: number): { peakMb: number; rssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { peakMb: kb("VmHWM") / 1024, rssMb: kb("VmRSS") / 1024 };
}

/** utime + stime of a process, in clock ticks (100 per second on Linux): a server's CPU time across a run. */
export function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

export interface Machine {
  cpu: string;
  cores: number;
  memoryGb: number;
  os: string;
  bun: string;
  wrk: string;
}

export function machine(): Machine {
  let osName = process.platform as string;
  try {
    osName = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(readFileSync("/etc/os-release", "utf8"))?.[1] ?? osName;
  } catch {
    // not Linux
  }
  const kernel = Bun.spawnSync(["uname", "-r"]).stdout.toString().trim();
  return {
    cpu: cpus()[0]?.model.trim() ?? "unknown",
    cores: cpus().length,
    memoryGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    os: `${osName}, Linux ${kernel}`,
    bun: Bun.version,
    wrk: wrkVersion() ?? "not installed",
  };
}

export function wrkVersion(): string | null {
  const path = Bun.which("wrk");
  if (!path) return null;
  const out = Bun.spawnSync([path, "-v"]);
  return /wrk\s+(\S+)/.exec(out.stdout.toString() + out.stderr.toString())?.[1] ?? "unknown";
}

export interface WrkOptions {
  connections: number;
  durationSeconds: number;
  /** Upper bound on requests for the whole run (the run stops sending when it is reached). */
  maxRequests: number;
  /** Lua defining `next_path()`, the path of the next request (global `id` is the thread number); default: the URL's path. */
  pathsLua?: string;
  threads?: number;
  label: string;
  /** Sent as X-Forwarded-For (Loam runs with TRUST_PROXY=1 in the bench: each run is its own rate-limit client). */
  client?: string;
  /**
   * Each request from another client address than the one before it (X-Forwarded-For 10.x.y.z; Loam runs
   * with TRUST_PROXY=1), so no run is polluted by 429s: cycling through `clientPool` addresses (default
   * 1,024: clients that come back, as real ones do), or, with `clientPool: 0`, a new address every time.
   */
  clientPerRequest?: boolean;
  clientPool?: number;
  /** More request headers (e.g. If-None-Match for a run of 304s). */
  headers?: Record<string, string>;
  /** Run wrk on this CPU only (see `pin`); ignored where taskset or a second core is missing. */
  cpu?: number;
}

/**
 * Pin a process (all its threads) to one CPU with util-linux's taskset. On a two-core machine the
 * servers measured share CPU 1 and wrk runs on CPU 0: two processes moving between two cores measure
 * the scheduler as much as themselves, and a server with a larger working set more so. Returns false
 * where taskset or a second core is missing (then nothing is pinned).
 */
export function pin(pid: number, cpu: number): boolean {
  const taskset = Bun.which("taskset");
  if (!taskset || navigator.hardwareConcurrency < 2) return false;
  return Bun.spawnSync([taskset, "-a", "-c", "-p", String(cpu), String(pid)], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
}

export interface WrkResult {
  label: string;
  url: string;
  connections: number;
  requests: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Non-2xx/3xx answers, socket errors and timeouts. */
  errors: number;
  capped: boolean;
  command: string;
}

/**
 * One wrk run, bounded by time (-d) and by requests (the Lua script stops each thread after its share).
 * The `done` hook prints one JSON line with latency percentiles in microseconds.
 */
export async function runWrk(url: string, options: WrkOptions): Promise<WrkResult> {
  const wrk = Bun.which("wrk");
  if (!wrk) throw new Error("wrk is not installed (Debian: apt-get install -y wrk)");
  const threads = options.threads ?? 1;
  const perThread = Math.ceil(options.maxRequests / threads);
  const script = join(TMP, `wrk-${options.label.replace(/[^a-z0-9]+/gi, "_")}.lua`);
  const defaultPath = new URL(url).pathname + new URL(url).search;
  writeFileSync(
    script,
    `-- generated by bench/run.ts for ${options.label}
local sent = 0
local cap = ${perThread}
${options.client ? `wrk.headers["X-Forwarded-For"] = ${JSON.stringify(options.client)}` : ""}
${Object.entries(options.headers ?? {}).map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`).join("\n")}
${options.pathsLua ?? `local fixed = ${JSON.stringify(defaultPath)}\nfunction next_path() return fixed end`}
local threads = 0
function setup(thread)
  thread:set("id", threads)
  threads = threads + 1
end
local per_request = ${options.clientPerRequest ? "true" : "false"}
local pool = ${options.clientPool ?? 1024}
local headers = {}
for name, value in pairs(wrk.headers) do headers[name] = value end
request = function()
  sent = sent + 1
  if sent > cap then wrk.thread:stop() end
  if per_request then
    local n = (id or 0) * 4194304 + (pool > 0 and (sent % pool) or sent)
    headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256)
    return wrk.format("GET", next_path(), headers)
  end
  return wrk.format("GET", next_path())
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRKJSON {"requests":%d,"duration_us":%d,"p50":%d,"p90":%d,"p99":%d,"max":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.status, e.timeout))
end
`,
  );
  const taskset = options.cpu !== undefined && navigator.hardwareConcurrency >= 2 ? Bun.which("taskset") : null;
  const args = [...(taskset ? [taskset, "-c", String(options.cpu)] : []), wrk, `-t${threads}`, `-c${options.connections}`, `-d${options.durationSeconds}s`, "--timeout", "5s", "-s", script, url];
  const proc = Bun.spawn(args, { stdout: "pipe", stderr: "pipe" });
  // Hard stop: wrk gets its duration plus ten seconds, then it is killed.
  const killer = setTimeout(() => proc.kill("SIGKILL"), (options.durationSeconds + 10) * 1000);
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  await proc.exited;
  clearTimeout(killer);
  const line = /WRKJSON (\{.*\})/.exec(stdout)?.[1];
  if (!line) throw new Error(`wrk produced no result for ${options.label}:\n${stdout}\n${stderr}`);
  const r = JSON.parse(line) as Record<string, number>;
  const seconds = r.duration_us! / 1e6;
  const requests = r.requests!;
  const capped = requests >= perThread * threads;
  return {
    label: options.label,
    url,
    connections: options.connections,
    requests,
    seconds,
    rps: requests / seconds,
    p50Ms: r.p50! / 1000,
    p90Ms: r.p90! / 1000,
    p99Ms: r.p99! / 1000,
    maxMs: r.max! / 1000,
    errors: r.connect! + r.read! + r.write! + r.status! + r.timeout!,
    capped,
    command: `wrk -t${threads} -c${options.connections} -d${options.durationSeconds}s --timeout 5s -s bench/tmp/${script.split("/").pop()} '${url}'`,
  };
}

/** What a bench file run on its own (`bun bench/<name>.ts`) shares: wrk must be there (else exit 2); the snapshot, durations and connections from the environment. */
export function standaloneBench(): { snapshotPath: string; seconds: number; warmupSeconds: number; connections: number; log: (message: string) => void } {
  if (!wrkVersion()) {
    process.stderr.write("bench: wrk is not installed (Debian: apt-get install -y wrk)\n");
    process.exit(2);
  }
  mkdirSync(TMP, { recursive: true });
  const seconds = Number(process.env.BENCH_SECONDS ?? 8);
  return {
    snapshotPath: process.env.LOAM_SNAPSHOT ?? join(ROOT, "data", "snapshot.sqlite"),
    seconds,
    warmupSeconds: Math.min(2, seconds),
    connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
    log: (message) => process.stderr.write(`bench: ${message}\n`),
  };
}
