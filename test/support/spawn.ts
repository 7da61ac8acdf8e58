/** Loam as a child process (`bun src/cli.ts serve`), for tests and benchmarks that need a real process. */
import { resolve } from "node:path";
import type { Subprocess } from "bun";

const ROOT = resolve(import.meta.dir, "../..");

/** A free TCP port on 127.0.0.1 (bind to 0, read it, release it), for servers started as child processes. */
export function freePort(): number {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

export interface SpawnOptions {
  env: Record<string, string>;
  /** The checkout to run (default: this one); bench/ab.ts runs an earlier release beside it. */
  cwd?: string;
  stdout?: "ignore" | "pipe" | ReturnType<typeof Bun.file>;
  stderr?: "ignore" | "pipe" | ReturnType<typeof Bun.file>;
}

/**
 * A suite run under a faked clock (`faketime -f '+107d' npm test`, docs/decisions.md#test-readiness)
 * hands it to the servers it starts, so a test and its server read the same clock.
 */
const FAKED_CLOCK = Object.fromEntries(["LD_PRELOAD", "FAKETIME"].flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])));

/**
 * `bun --max-http-header-size=262144 src/cli.ts serve` on 127.0.0.1 and a free port, with the rate
 * limit raised (load and fault tests must not be refused) and only the environment given here (and a
 * faked clock the suite runs under).
 */
export function spawnLoam(options: SpawnOptions): { proc: Subprocess; port: number; base: string } {
  const port = freePort();
  const proc = Bun.spawn([process.execPath, "--max-http-header-size=262144", "src/cli.ts", "serve"], {
    cwd: options.cwd ?? ROOT,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/tmp",
      HOST: "127.0.0.1",
      PORT: String(port),
      RATE_LIMIT_PER_MINUTE: "1000000",
      ...FAKED_CLOCK,
      ...options.env,
    },
    stdout: options.stdout ?? "ignore",
    stderr: options.stderr ?? "ignore",
  });
  return { proc, port, base: `http://127.0.0.1:${port}` };
}

/**
 * Readiness on a busy machine (docs/decisions.md#test-readiness): poll `check` until it gives a value,
 * bounded by time, never by a count of tries, a log line or a fixed sleep. The default bound is long
 * enough for a 2-core machine with two CPU-bound processes beside the suite.
 */
export async function pollUntil<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await Bun.sleep(25);
  }
}

/** The worker label of /metrics on a fresh connection to `base` (the kernel picks the worker per connection); null when none answers yet. */
export async function workerOfConnection(base: string): Promise<string | null> {
  try {
    const text = await (await fetch(`${base}/metrics`, { headers: { connection: "close" } })).text();
    return /^loam_build_info\{worker="(\d+)"/m.exec(text)?.[1] ?? null;
  } catch {
    return null; // not listening yet
  }
}

/** Poll fresh connections until every one of `count` workers has answered; the labels seen, sorted. */
export async function untilWorkersAnswer(base: string, count: number, ms = 60_000): Promise<string[]> {
  const seen = new Set<string>();
  try {
    return await pollUntil(`answers from all ${count} workers`, async () => {
      const worker = await workerOfConnection(base);
      if (worker !== null) seen.add(worker);
      return seen.size >= count ? [...seen].sort() : undefined;
    }, ms);
  } catch (error) {
    throw new Error(`${(error as Error).message} (workers seen: ${[...seen].join(", ") || "none"})`);
  }
}
