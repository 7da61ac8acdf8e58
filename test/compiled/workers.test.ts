/**
 * LOAM_WORKERS in the single executable: with no repository, bun or snapshot beside it, the
 * executable starts copies of itself as workers (`loam serve --worker <n>`), which serve its embedded
 * snapshot on one port, and SIGTERM stops them all with exit code 0.
 */
import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildOnce, spawnLoam } from "./support";
import { pollUntil, untilWorkersAnswer } from "../support/spawn";

test("the executable runs itself as two workers on one port, serving its embedded snapshot, and stops with 0", async () => {
  const { outfile } = await buildOnce();
  const dir = mkdtempSync(join(tmpdir(), "loam-compiled-workers-"));
  const loam = await spawnLoam({ cmd: [outfile, "serve"], cwd: dir, env: { LOAM_WORKERS: "2", LOAM_DB: join(dir, "loam.sqlite"), LOG_LEVEL: "error", RATE_LIMIT_PER_MINUTE: "100000" } });
  try {
    // Ready when both workers answer (polled on fresh connections, bounded for a busy machine): the
    // supervisor's log line comes before the second worker listens.
    expect(await untilWorkersAnswer(loam.base, 2)).toEqual(["1", "2"]);
    const response = await loam.get("/v1/soil/location?latitude=41.944131&longitude=-94.359608");
    expect(response.status).toBe(200);
    expect((await response.json()).map_units[0].map_unit_name).toContain("Clarion loam");
    // Both lines were printed before the workers answered; reading the pipe may lag behind, so it is polled.
    const startedLines = () => loam.lines.filter((line) => /"msg":"worker \d started"/.test(line)).map((line) => JSON.parse(line));
    const started = await pollUntil("both 'worker started' lines read", () => startedLines().length >= 2 && startedLines());
    expect(started).toHaveLength(2);
    loam.proc.kill("SIGTERM");
    expect(await loam.proc.exited).toBe(0);
    for (const { pid } of started) expect(() => process.kill(pid, 0)).toThrow();
  } finally {
    if (loam.proc.exitCode === null) loam.proc.kill("SIGKILL");
  }
}, 180_000);
