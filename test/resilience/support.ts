/**
 * Resilience harness: Loam as a child process (`bun src/cli.ts serve`) on 127.0.0.1, so a test can
 * read its memory from /proc, kill it with SIGKILL and start it again on the same state database.
 */
import { readFileSync } from "node:fs";
import type { Subprocess } from "bun";
import { tempDbPath, testSnapshot } from "../support/server";
import { spawnLoam } from "../support/spawn";


export interface ChildLoam {
  base: string;
  pid: number;
  dbPath: string;
  proc: Subprocess;
  /** Resident memory now (VmRSS) and at its peak (VmHWM), in MB. */
  memory(): { rssMb: number; peakMb: number };
  /** SIGKILL: no shutdown code runs. */
  kill9(): Promise<void>;
  /** SIGTERM and wait (bounded; SIGKILL after 5 s). */
  stop(): Promise<void>;
}

export interface ChildOptions {
  dbPath?: string;
  env?: Record<string, string>;
}

/** Start `bun --max-http-header-size=262144 src/cli.ts serve` over the test snapshot; resolves once /health answers. */
export async function startChild(options: ChildOptions = {}): Promise<ChildLoam> {
  const dbPath = options.dbPath ?? tempDbPath();
  const { proc, base } = spawnLoam({
    env: { LOAM_DB: dbPath, LOAM_SNAPSHOT: await testSnapshot(), LOG_LEVEL: "error", ...options.env },
    stderr: "pipe",
  });
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`loam exited with ${proc.exitCode}: ${await new Response(proc.stderr as ReadableStream).text()}`);
    try {
      const response = await fetch(`${base}/health`, { signal: AbortSignal.timeout(500) });
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error("loam did not answer /health within 20 s");
    }
    await Bun.sleep(50);
  }
  return {
    base,
    pid: proc.pid,
    dbPath,
    proc,
    memory() {
      const status = readFileSync(`/proc/${proc.pid}/status`, "utf8");
      const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
      return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
    },
    async kill9() {
      proc.kill("SIGKILL");
      await proc.exited;
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill("SIGTERM");
      const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(5000).then(() => false)]);
      if (!exited) {
        proc.kill("SIGKILL");
        await proc.exited;
      }
    },
  };
}

/** Distinct points on a grid over IA073's extract (the known-answer area): each one a separate cache entry. */
export function distinctPoints(count: number, offset = 0): Array<{ latitude: string; longitude: string }> {
  const points: Array<{ latitude: string; longitude: string }> = [];
  for (let i = offset; i < offset + count; i++) {
    const row = Math.floor(i / 50);
    const column = i % 50;
    points.push({ latitude: (41.9432 + row * 0.00002).toFixed(6), longitude: (-94.3617 + column * 0.00007).toFixed(6) });
  }
  return points;
}
