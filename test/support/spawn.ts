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
 * `bun --max-http-header-size=262144 src/cli.ts serve` on 127.0.0.1 and a free port, with the rate
 * limit raised (load and fault tests must not be refused) and only the environment given here.
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
      ...options.env,
    },
    stdout: options.stdout ?? "ignore",
    stderr: options.stderr ?? "ignore",
  });
  return { proc, port, base: `http://127.0.0.1:${port}` };
}
