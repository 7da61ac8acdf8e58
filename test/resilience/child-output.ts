/**
 * A child-process Loam whose stdout and stderr go to files a test can read while it runs or after it
 * exits (the JSON log lines, the access log, a refusal to start).
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { testSnapshot } from "../support/server";
import { spawnLoam } from "../support/spawn";

export interface LoggedChild {
  base: string;
  port: number;
  proc: Subprocess;
  stdout(): string;
  stderr(): string;
  /** stdout's JSON lines, parsed. */
  lines(): Record<string, any>[];
  /** SIGTERM and wait (SIGKILL after 15 s). */
  stop(): Promise<number | null>;
}

/** Spawn `src/cli.ts serve` over the test snapshot with `env`; resolves once /health answers (or throws with stderr). */
export async function startLoggedChild(env: Record<string, string>, waitForHealth = true): Promise<LoggedChild> {
  const dir = mkdtempSync(join(tmpdir(), "loam-child-out-"));
  const outPath = join(dir, "stdout");
  const errPath = join(dir, "stderr");
  const { proc, base, port } = spawnLoam({
    env: { LOAM_SNAPSHOT: await testSnapshot(), ...env },
    stdout: Bun.file(outPath),
    stderr: Bun.file(errPath),
  });
  const read = (path: string) => {
    try {
      return readFileSync(path, "utf8");
    } catch {
      return "";
    }
  };
  const child: LoggedChild = {
    base,
    port,
    proc,
    stdout: () => read(outPath),
    stderr: () => read(errPath),
    lines: () =>
      read(outPath)
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line)),
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill("SIGTERM");
        const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(15_000).then(() => false)]);
        if (!exited) proc.kill("SIGKILL");
      }
      await proc.exited;
      return proc.exitCode;
    },
  };
  if (!waitForHealth) return child;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`loam exited with ${proc.exitCode}: ${child.stderr()}`);
    try {
      const response = await fetch(`${base}/health`, { signal: AbortSignal.timeout(500) });
      await response.arrayBuffer();
      if (response.ok) return child;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`loam did not answer /health within 20 s: ${child.stderr()}`);
    }
    await Bun.sleep(50);
  }
}
