/**
 * Loam as operators run it: a separate process (the single executable, or `bun src/cli.ts serve`),
 * configured only by its environment, watched through its stdout and its exit code.
 */
import { existsSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildExecutable, type BuildResult } from "../../scripts/build";
import { freePort } from "../support/spawn";

export { freePort };

export const REPO = resolve(import.meta.dir, "../..");

let built: Promise<BuildResult> | undefined;

/** Executables built by test runs, one directory per test process (bun test runs no exit hooks). */
const BUILDS = join(tmpdir(), "loam-test-executables");

/** Remove what earlier test processes built (about 120 MB each), once they have exited. */
function sweepBuilds(): void {
  for (const name of existsSync(BUILDS) ? readdirSync(BUILDS) : []) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ESRCH") rmSync(join(BUILDS, name), { recursive: true, force: true });
    }
  }
}

/** `bun run build`, once per test process, into a temporary directory (dist/ is left alone). */
export function buildOnce(): Promise<BuildResult> {
  built ??= (() => {
    sweepBuilds();
    const dir = join(BUILDS, String(process.pid));
    rmSync(dir, { recursive: true, force: true });
    return buildExecutable({ outfile: join(dir, "loam"), workDir: join(dir, "work"), log: () => {} });
  })();
  return built;
}

export interface LoamProcess {
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  base: string;
  port: number;
  /** stdout lines so far (JSON log lines parsed when they parse). */
  lines: string[];
  stderr(): string;
  /** Resolves with the first stdout line matching, or rejects when the process exits first. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** GET with `Connection: close`, so no pooled keep-alive socket outlives the call. */
  get(path: string, init?: RequestInit): Promise<Response>;
}

export interface SpawnOptions {
  cmd: string[];
  cwd: string;
  /** The whole environment of the child (nothing is inherited but PATH). */
  env: Record<string, string>;
}

export async function spawnLoam({ cmd, cwd, env }: SpawnOptions): Promise<LoamProcess> {
  const port = Number(env.PORT ?? freePort());
  const proc = Bun.spawn(cmd, {
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOST: "127.0.0.1", ...env, PORT: String(port) },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  let stderr = "";
  void (async () => {
    let pending = "";
    for await (const chunk of proc.stdout.pipeThrough(new TextDecoderStream())) {
      pending += chunk;
      const parts = pending.split("\n");
      pending = parts.pop() ?? "";
      lines.push(...parts);
      for (const wake of waiters) wake();
    }
    if (pending) lines.push(pending);
    for (const wake of waiters) wake();
  })();
  void (async () => {
    for await (const chunk of proc.stderr.pipeThrough(new TextDecoderStream())) stderr += chunk;
  })();

  const base = `http://127.0.0.1:${port}`;
  const loam: LoamProcess = {
    proc,
    base,
    port,
    lines,
    stderr: () => stderr,
    get: (path, init) => fetch(base + path, { ...init, headers: { connection: "close", ...(init?.headers as Record<string, string>) } }),
    waitForLine(pattern, timeoutMs = 10_000) {
      return new Promise<string>((resolvePromise, reject) => {
        const timer = setTimeout(() => done(new Error(`no stdout line matching ${pattern} within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
        const check = () => {
          const line = lines.find((l) => pattern.test(l));
          if (line !== undefined) return done(null, line);
          if (proc.exitCode !== null || proc.signalCode !== null) done(new Error(`exited (${proc.exitCode ?? proc.signalCode}) before a line matching ${pattern}; stderr: ${stderr}`));
        };
        const done = (error: Error | null, line?: string) => {
          clearTimeout(timer);
          waiters.delete(check);
          if (error) reject(error);
          else resolvePromise(line!);
        };
        waiters.add(check);
        void proc.exited.then(() => setTimeout(check, 50));
        check();
      });
    },
  };
  await waitHealthy(loam);
  return loam;
}

/** Poll /health until 200; fails when the process exits first or after `timeoutMs` (long enough for a busy 2-core machine). */
export async function waitHealthy(loam: LoamProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (loam.proc.exitCode !== null) throw new Error(`loam exited with ${loam.proc.exitCode} before serving; stderr: ${loam.stderr()}`);
    try {
      const response = await loam.get("/health");
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await Bun.sleep(25);
  }
  throw new Error(`loam did not answer /health within ${timeoutMs} ms; stderr: ${loam.stderr()}`);
}

/** True once new TCP connections to the port are refused (the listener closed), within `withinMs`. */
export async function refusesConnections(port: number, withinMs = 2000): Promise<boolean> {
  const deadline = performance.now() + withinMs;
  do {
    try {
      const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
      socket.end();
    } catch {
      return true;
    }
    await Bun.sleep(20);
  } while (performance.now() < deadline);
  return false;
}
