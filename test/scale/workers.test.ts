/**
 * LOAM_WORKERS=2 as a real process tree (`bun src/cli.ts serve`): two workers answer on one port,
 * a killed worker is started again, and SIGTERM stops everything with exit code 0.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Subprocess } from "bun";
import { pollUntil, spawnLoam, untilWorkersAnswer, workerOfConnection as workerOfConnection_ } from "../support/spawn";
import { tempDbPath, testSnapshot } from "../support/server";

const KNOWN_POINT = "/v1/soil/location?latitude=41.944131&longitude=-94.359608";

let supervisor: Subprocess<"ignore", "pipe", "ignore">;
let base: string;
const lines: Record<string, any>[] = [];

/** The supervisor's and workers' JSON log lines, as they come. */
async function collect(stream: ReadableStream<Uint8Array>): Promise<void> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffered.indexOf("\n")) !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      try {
        lines.push(JSON.parse(line));
      } catch {
        // not a log line
      }
    }
  }
}

/** Bounded polls for the events of these tests (a restart, a log line); readiness uses untilWorkersAnswer. */
const until = <T,>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>) => pollUntil(what, check);
const workerOfConnection = async (): Promise<string> => (await workerOfConnection_(base)) ?? "none";

const startedPid = (worker: number, after = 0) => lines.slice(after).find((l) => l.msg === `worker ${worker} started`)?.pid as number | undefined;
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  const spawned = spawnLoam({ env: { LOAM_WORKERS: "2", LOAM_SNAPSHOT: await testSnapshot(), LOAM_DB: tempDbPath(), LOG_LEVEL: "error" }, stdout: "pipe", stderr: "ignore" });
  supervisor = spawned.proc as typeof supervisor;
  base = spawned.base;
  void collect(supervisor.stdout);
  // Ready when both workers answer on fresh connections (not on their log lines), bounded for a busy machine.
  await untilWorkersAnswer(base, 2);
  await until("both 'worker started' lines read", () => startedPid(1) !== undefined && startedPid(2) !== undefined);
}, 120_000);

afterAll(async () => {
  if (supervisor.exitCode === null) {
    supervisor.kill("SIGKILL");
    await supervisor.exited;
  }
  for (const pid of lines.filter((l) => /^worker \d started$/.test(String(l.msg))).map((l) => l.pid as number)) if (alive(pid)) process.kill(pid, "SIGKILL");
});

describe("LOAM_WORKERS=2", () => {
  test("two worker processes answer on one port; /metrics tells them apart by the worker label", async () => {
    const pids = [startedPid(1), startedPid(2)];
    expect(pids.every((pid) => typeof pid === "number" && pid !== supervisor.pid)).toBe(true);
    expect(new Set(pids).size).toBe(2);
    const seen = new Set<string>();
    await until("answers from both workers", async () => {
      seen.add(await workerOfConnection());
      return seen.size === 2 || undefined;
    });
    expect([...seen].sort()).toEqual(["1", "2"]);
    const response = await fetch(base + KNOWN_POINT);
    expect(response.status).toBe(200);
    expect((await response.json()).map_units[0].map_unit_name).toContain("Clarion loam");
  });

  test("a killed worker is started again (after a back-off), and serves", async () => {
    const mark = lines.length;
    const victim = startedPid(1)!;
    process.kill(victim, "SIGKILL");
    const exitLine = await until("the exit logged", () => lines.slice(mark).find((l) => String(l.msg).startsWith("worker 1 exited unexpectedly")));
    expect(exitLine).toMatchObject({ level: "error", pid: victim, signal: "SIGKILL" });
    expect(exitLine.restart_in_ms).toBeGreaterThan(0);
    const replacement = await until("worker 1 started again", () => startedPid(1, mark));
    expect(replacement).not.toBe(victim);
    await until("the new worker 1 answering", async () => ((await workerOfConnection()) === "1") || undefined);
    // The other worker was never touched.
    expect(alive(startedPid(2)!)).toBe(true);
    // Dying young again: the next restart waits twice as long (no hot loop).
    const again = lines.length;
    process.kill(replacement, "SIGKILL");
    const second = await until("the second exit logged", () => lines.slice(again).find((l) => String(l.msg).startsWith("worker 1 exited unexpectedly")));
    expect(second.restart_in_ms).toBe(exitLine.restart_in_ms * 2);
    await until("worker 1 started a third time", () => startedPid(1, again));
    await until("the third worker 1 answering", async () => ((await workerOfConnection()) === "1") || undefined);
  });

  test("SIGTERM stops every worker and the supervisor exits 0", async () => {
    const workers = [...new Set(lines.filter((l) => /^worker \d started$/.test(String(l.msg))).map((l) => l.pid as number))].filter(alive);
    expect(workers).toHaveLength(2);
    supervisor.kill("SIGTERM");
    expect(await supervisor.exited).toBe(0);
    for (const pid of workers) expect(alive(pid)).toBe(false);
    expect(lines.filter((l) => /^worker \d stopped$/.test(String(l.msg))).map((l) => l.code)).toEqual([0, 0]);
    expect(lines.at(-1)?.msg).toBe("all workers stopped cleanly");
    await expect(fetch(base + "/health")).rejects.toThrow();
  });
});
