/**
 * Findings 4 and 11 of the hardening pass, through the real CLI:
 * - LOAM_DB at a directory, /dev/null or a read-only mount exited 1 with SQLite's text; it is now a
 *   configuration error: exit 2 and one line naming LOAM_DB.
 * - a partly corrupt LOAM_DB made every data request a 500 while /health stayed 200; it is now moved
 *   aside at start (logged) and recreated, and data requests answer 200.
 */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, closeSync, existsSync, mkdtempSync, openSync, readdirSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tempDbPath, testSnapshot } from "../support/server";
import { spawnLoam } from "../support/spawn";
import { startLoggedChild } from "./child-output";
import { distinctPoints } from "./support";
import { isRoot, mountTmpfs, type Mounted } from "./filesystems";

/** Start `loam serve` with LOAM_DB at `dbPath`; expect it to refuse. */
async function refusal(dbPath: string): Promise<{ code: number | null; stderr: string }> {
  const { proc } = spawnLoam({ env: { LOAM_DB: dbPath, LOAM_SNAPSHOT: await testSnapshot() }, stderr: "pipe" });
  const exited = await Promise.race([proc.exited, Bun.sleep(15_000).then(() => "running")]);
  if (exited === "running") proc.kill("SIGKILL");
  return { code: proc.exitCode, stderr: await new Response(proc.stderr as ReadableStream).text() };
}

function expectConfigRefusal(result: { code: number | null; stderr: string }, dbPath: string) {
  expect(result.code).toBe(2);
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith("loam: invalid configuration: LOAM_DB: ");
  expect(lines[0]).toContain(dbPath);
  expect(result.stderr).not.toMatch(/SQLITE_|unable to open database|disk I\/O error/);
}

describe("LOAM_DB that can never hold the database: exit 2 naming LOAM_DB", () => {
  const mounts: Mounted[] = [];
  afterAll(() => mounts.forEach((mount) => mount.unmount()));

  test("a directory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loam-db-dir-"));
    expectConfigRefusal(await refusal(dir), dir);
  });

  test("/dev/null", async () => {
    expectConfigRefusal(await refusal("/dev/null"), "/dev/null");
  });

  test("a file on a read-only mount (read-only by mode when not root)", async () => {
    let dir: string;
    const mount = mountTmpfs(1024, true);
    if (mount) {
      mounts.push(mount);
      dir = mount.dir;
    } else {
      expect(isRoot).toBe(false);
      dir = mkdtempSync(join(tmpdir(), "loam-db-ro-"));
      chmodSync(dir, 0o555);
    }
    const dbPath = join(dir, "loam.sqlite");
    expectConfigRefusal(await refusal(dbPath), dbPath);
  });

  test("an existing database on a mount that became read-only", async () => {
    const mount = mountTmpfs(4096);
    if (!mount) return void expect(isRoot).toBe(false);
    mounts.push(mount);
    const dbPath = join(mount.dir, "loam.sqlite");
    const first = await startLoggedChild({ LOAM_DB: dbPath });
    expect((await fetch(`${first.base}/health`)).status).toBe(200);
    expect(await first.stop()).toBe(0);
    mount.remount(true);
    expectConfigRefusal(await refusal(dbPath), dbPath);
  });
});

/** Overwrite every page of `table`'s b-tree but its root with garbage: quick_check fails, reads of the table fail. */
function corruptTable(dbPath: string, table: string): number {
  const db = new Database(dbPath);
  const pageSize = db.query<{ page_size: number }, []>("PRAGMA page_size").get()!.page_size;
  const pages = db
    .query<{ pageno: number }, [string]>("SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno")
    .all(table)
    .map((row) => row.pageno)
    .slice(1);
  db.close();
  const fd = openSync(dbPath, "r+");
  for (const page of pages) writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (page - 1) * pageSize);
  closeSync(fd);
  return pages.length;
}

describe("a partly corrupt LOAM_DB", () => {
  test("is moved aside at start and recreated: data requests answer 200 and a log line says where it went", async () => {
    const dbPath = tempDbPath();
    const points = distinctPoints(300);
    const pathOf = (point: { latitude: string; longitude: string }) => `/v1/soil/location?latitude=${point.latitude}&longitude=${point.longitude}&properties=ph,clay`;

    // A real LOAM_DB: hundreds of cached answers, closed cleanly (WAL checkpointed).
    const first = await startLoggedChild({ LOAM_DB: dbPath });
    for (const point of points) expect((await fetch(first.base + pathOf(point))).status).toBe(200);
    expect(await first.stop()).toBe(0);

    const tables = new Database(dbPath, { readonly: true });
    const biggest = tables.query<{ name: string }, []>("SELECT name FROM dbstat WHERE name NOT LIKE 'sqlite_%' GROUP BY name ORDER BY count(*) DESC LIMIT 1").get()!.name;
    tables.close();
    expect(corruptTable(dbPath, biggest)).toBeGreaterThan(3);
    const check = new Database(dbPath, { readonly: true });
    expect(check.query<{ quick_check: string }, []>("PRAGMA quick_check").all()[0]!.quick_check).not.toBe("ok");
    check.close();

    const second = await startLoggedChild({ LOAM_DB: dbPath });
    try {
      for (const point of points.slice(0, 50)) {
        const response = await fetch(second.base + pathOf(point));
        expect(response.status).toBe(200);
        expect((await response.json()).cache.hit).toBe(false);
      }
      const moved = second.lines().find((line) => line.level === "warn" && String(line.msg).includes("moved it aside"));
      expect(moved).toBeDefined();
      const aside = readdirSync(join(dbPath, "..")).find((name) => name.startsWith("loam.sqlite.corrupt-") && !name.endsWith("-wal") && !name.endsWith("-shm"));
      expect(aside).toBeDefined();
      expect(String(moved!.msg)).toContain(aside!);
      expect(existsSync(dbPath)).toBe(true);
    } finally {
      expect(await second.stop()).toBe(0);
    }
    const fresh = new Database(dbPath, { readonly: true });
    expect(fresh.query<{ quick_check: string }, []>("PRAGMA quick_check").all()[0]!.quick_check).toBe("ok");
    fresh.close();
  }, 60_000);
});
