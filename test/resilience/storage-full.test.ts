/**
 * Finding 2 of the hardening pass (the rate-counter part): a full or read-only LOAM_DB turned every
 * API answer into a 500 (`SQLiteError: database or disk is full` from the counter write), /health
 * included. Counter writes now fail open: logged, counted in /metrics, the request answered.
 * A real full filesystem: LOAM_DB on a tiny tmpfs that a filler file then fills (needs root to mount;
 * a mount cannot be made read-only while Loam holds the file open for writing, and a read-only
 * LOAM_DB at start is refused with exit 2, see state-db.test.ts).
 */
import { describe, expect, test } from "bun:test";
import type { LoggedChild } from "./child-output";
import { isRoot } from "./filesystems";
import { storageErrors, useFullStateDb } from "./full-disk";

/** Requests from `clients` distinct forwarded addresses (each one's first request writes a counter). */
async function fromManyClients(loam: LoggedChild, path: string, clients: number, offset = 0): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = offset; i < offset + clients; i++) {
    const response = await fetch(loam.base + path, { headers: { "X-Forwarded-For": `198.51.${i >> 8}.${i & 255}` } });
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  return statuses;
}

describe.skipIf(!isRoot)("rate counters on a LOAM_DB that cannot be written (tmpfs, root only)", () => {
  const startOnFullDisk = useFullStateDb();

  test("a full filesystem: /health, /v1 and /v1/providers answer 200; the failures are logged and counted; the limit still holds", async () => {
    const loam = await startOnFullDisk({ TRUST_PROXY: "1", RATE_LIMIT_PER_MINUTE: "5", LOG_LEVEL: "error" });

    for (const path of ["/health", "/v1", "/v1/providers"]) {
      expect(await fromManyClients(loam, path, 150, path.length * 1000)).toEqual(Array(150).fill(200));
    }
    const metrics = await (await fetch(`${loam.base}/metrics`)).text();
    expect(storageErrors(metrics, "rate_counters", "reserve")).toBeGreaterThan(0);
    const logged = loam.lines().filter((line) => String(line.msg).includes("rate_counters reserve failed"));
    expect(logged.length).toBeGreaterThanOrEqual(1);
    expect(logged[0]!.error).toMatch(/SQLITE_FULL|SQLITE_IOERR|disk is full/);
    // Reported once a minute, not once per request.
    expect(logged.length).toBeLessThan(storageErrors(metrics, "rate_counters", "reserve"));

    // One client still gets 5 a minute, counted in memory.
    const one = [];
    for (let i = 0; i < 6; i++) one.push((await fetch(`${loam.base}/health`, { headers: { "X-Forwarded-For": "192.0.2.77" } })).status);
    expect(one).toEqual([200, 200, 200, 200, 200, 429]);
  }, 60_000);
});
