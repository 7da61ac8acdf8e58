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

test("the executable runs itself as two workers on one port, serving its embedded snapshot, and stops with 0", async () => {
  const { outfile } = await buildOnce();
  const dir = mkdtempSync(join(tmpdir(), "loam-compiled-workers-"));
  const loam = await spawnLoam({ cmd: [outfile, "serve"], cwd: dir, env: { LOAM_WORKERS: "2", LOAM_DB: join(dir, "loam.sqlite"), LOG_LEVEL: "error", RATE_LIMIT_PER_MINUTE: "100000" } });
  try {
    await loam.waitForLine(/"msg":"loam supervising 2 workers/);
    const workers = new Set<string>();
    for (let i = 0; i < 200 && workers.size < 2; i++) {
      // A fresh connection each time (the kernel picks the worker per connection); /metrics is rate limited, hence the high limit.
      const text = await (await loam.get("/metrics", { headers: { connection: "close" } })).text();
      const match = /^loam_build_info\{worker="(\d+)"/m.exec(text);
      if (match) workers.add(match[1]!);
    }
    expect([...workers].sort()).toEqual(["1", "2"]);
    const response = await loam.get("/v1/soil/location?latitude=41.944131&longitude=-94.359608");
    expect(response.status).toBe(200);
    expect((await response.json()).map_units[0].map_unit_name).toContain("Clarion loam");
    const started = loam.lines.filter((line) => /"msg":"worker \d started"/.test(line)).map((line) => JSON.parse(line));
    expect(started).toHaveLength(2);
    loam.proc.kill("SIGTERM");
    expect(await loam.proc.exited).toBe(0);
    for (const { pid } of started) expect(() => process.kill(pid, 0)).toThrow();
  } finally {
    if (loam.proc.exitCode === null) loam.proc.kill("SIGKILL");
  }
}, 180_000);
