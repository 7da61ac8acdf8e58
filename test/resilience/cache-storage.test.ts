/**
 * Finding 2 of the hardening pass (the cache part): a full, read-only or damaged LOAM_DB made every
 * data request a 500 (`SQLiteError: database or disk is full` from the cache store). Now a cache read
 * that fails is a miss and a cache write that fails is skipped: both logged and counted in
 * loam_storage_errors_total{store="cache"}, and the data endpoints keep answering from the upstream.
 */
import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { startLoam, type RunningLoam } from "../support/server";
import { isRoot } from "./filesystems";
import { storageErrors, useFullStateDb } from "./full-disk";
import { distinctPoints } from "./support";

const KNOWN_POINT = "/v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=ph,clay";


describe("the cache table is gone from LOAM_DB (reads and writes fail)", () => {
  let loam: RunningLoam | null = null;
  afterEach(async () => {
    await loam?.stop();
    loam = null;
  });

  test("data requests answer 200 from the upstream; the failed reads and writes are logged and counted", async () => {
    loam = await startLoam();
    const first = await loam.json(KNOWN_POINT);
    expect(first.status).toBe(200);
    // Damage the store from outside, as another process or a bad disk would.
    const other = new Database(loam.config.dbPath);
    other.exec("DROP TABLE cache_entries");
    other.close();

    for (const { latitude, longitude } of distinctPoints(5)) {
      const answer = await loam.json(`/v1/soil/location?latitude=${latitude}&longitude=${longitude}`);
      expect(answer.status).toBe(200);
      expect(answer.body.cache.hit).toBe(false);
    }
    const metrics = await (await loam.get("/metrics")).text();
    expect(storageErrors(metrics, "cache", "read")).toBeGreaterThanOrEqual(5);
    expect(storageErrors(metrics, "cache", "write")).toBeGreaterThanOrEqual(5);
    const logged = loam.logs.filter((line) => String(line.msg).startsWith("LOAM_DB cache"));
    expect(logged.length).toBeGreaterThanOrEqual(1);
    expect(String(logged[0]!.error)).toContain("no such table");
    // Reported once a minute per operation, not once per request.
    expect(logged.length).toBeLessThanOrEqual(2);
    // /health is untouched.
    expect((await loam.get("/health")).status).toBe(200);
  });
});

describe.skipIf(!isRoot)("the cache on a full LOAM_DB (tmpfs, root only)", () => {
  const startOnFullDisk = useFullStateDb();

  test("every new point answers 200; the writes that failed are skipped, logged and counted; a repeat still answers", async () => {
    const loam = await startOnFullDisk({ LOG_LEVEL: "error", RATE_LIMIT_PER_MINUTE: "100000" });

    const statuses: number[] = [];
    for (const { latitude, longitude } of distinctPoints(40)) {
      const response = await fetch(`${loam.base}/v1/soil/location?latitude=${latitude}&longitude=${longitude}`);
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses).toEqual(Array(40).fill(200));
    const again = await fetch(loam.base + KNOWN_POINT);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { observations: unknown[] }).observations.length).toBeGreaterThan(0);

    const metrics = await (await fetch(`${loam.base}/metrics`)).text();
    expect(storageErrors(metrics, "cache", "write")).toBeGreaterThan(0);
    const logged = loam.lines().filter((line) => String(line.msg).includes("LOAM_DB cache write failed"));
    expect(logged.length).toBeGreaterThanOrEqual(1);
    expect(logged[0]!.error).toMatch(/SQLITE_FULL|SQLITE_IOERR|disk is full/);
  }, 60_000);
});
