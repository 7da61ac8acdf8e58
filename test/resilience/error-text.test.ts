/**
 * Finding 10 of the hardening pass (the SQLite part): SQLite's error text reached clients, e.g.
 * `Snapshot query failed: database disk image is malformed` in a 502's message. Clients now get a
 * fixed message for the error class; the detail goes to the log with the request id.
 * The fault is real: a copy of the test snapshot with the pages of its horizon table overwritten.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { closeSync, copyFileSync, mkdtempSync, openSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { contractFrom } from "../support/openapi";
import { startLoam, testSnapshot, type RunningLoam } from "../support/server";
import { SNAPSHOT_QUERY_FAILED } from "../../src/upstream/snapshot";

/** SQLite's own wording, which must never appear in an answer. */
const SQLITE_TEXT = /malformed|SQLITE|sqlite|database disk|disk image|not a database|chorizon|Snapshot query failed/;

/** A copy of the snapshot whose `table` pages, all but the root, are garbage. */
async function snapshotWithCorrupt(table: string): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), "loam-corrupt-snapshot-")), "snapshot.sqlite");
  copyFileSync(await testSnapshot(), path);
  const db = new Database(path);
  const pageSize = db.query<{ page_size: number }, []>("PRAGMA page_size").get()!.page_size;
  const pages = db.query<{ pageno: number }, [string]>("SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno").all(table).slice(1);
  db.close();
  const fd = openSync(path, "r+");
  for (const { pageno } of pages) writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (pageno - 1) * pageSize);
  closeSync(fd);
  return path;
}

describe("SQLite error text never reaches a client", () => {
  let loam: RunningLoam;
  beforeAll(async () => {
    loam = await startLoam({ source: new SnapshotTransport(await snapshotWithCorrupt("chorizon")) });
  });
  afterAll(() => loam.stop());

  test("a point over a corrupt snapshot table: 502 upstream_error with a fixed message; the SQLite detail is logged", async () => {
    const contract = await contractFrom(loam.base);
    const answer = await loam.json("/v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=ph,clay", { headers: { "X-Request-Id": "corrupt-1" } });
    expect(answer.status).toBe(502);
    expect(answer.body.error.code).toBe("upstream_error");
    expect(answer.body.error.retryable).toBe(true);
    expect(answer.body.error.request_id).toBe("corrupt-1");
    contract.assert("ErrorResponse", answer.body);
    expect(JSON.stringify(answer.body)).not.toMatch(SQLITE_TEXT);
    expect(answer.body.error.message).toContain("request id");

    const logged = loam.logs.find((line) => line.request_id === "corrupt-1");
    expect(logged).toBeDefined();
    expect(String(logged!.detail)).toContain("database disk image is malformed");
  });

  test("the same answer for every affected request: the message is fixed, not the failure's text", async () => {
    const messages = new Set<string>();
    for (const [latitude, longitude] of [["41.944131", "-94.359608"], ["41.9432", "-94.3617"], ["41.95", "-94.35"]]) {
      const answer = await loam.json(`/v1/soil/location?latitude=${latitude}&longitude=${longitude}`);
      if (answer.status === 200) continue;
      expect(JSON.stringify(answer.body)).not.toMatch(SQLITE_TEXT);
      messages.add(answer.body.error.message);
    }
    expect(messages.size).toBe(1);
  });
});

/** Overwrite the pages of `table` (all but the root) in place, and bump the change counter so an open connection rereads them. */
function corruptInPlace(path: string, table: string): void {
  const db = new Database(path, { readonly: true });
  const pageSize = db.query<{ page_size: number }, []>("PRAGMA page_size").get()!.page_size;
  const pages = db.query<{ pageno: number }, [string]>("SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno").all(table).slice(1);
  db.close();
  const fd = openSync(path, "r+");
  for (const { pageno } of pages) writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (pageno - 1) * pageSize);
  // The file change counter (header bytes 24..27).
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(Date.now() % 0xffffffff);
  writeSync(fd, counter, 0, 4, 24);
  closeSync(fd);
}

describe("the snapshot transport's own errors carry a fixed message (also inside a stale answer's warning)", () => {
  test("a snapshot damaged under a running Loam: the expired entry is served stale, and its warning holds no SQLite text", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "loam-damaged-later-")), "snapshot.sqlite");
    copyFileSync(await testSnapshot(), path);
    let clock = Date.now();
    const loam = await startLoam({ source: new SnapshotTransport(path), env: { CACHE_TTL_SECONDS: "60" }, now: () => clock });
    try {
      const point = "/v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=ph,clay";
      expect((await loam.json(point)).status).toBe(200);
      corruptInPlace(path, "chorizon");
      clock += 120_000;

      const stale = await loam.json(point, { headers: { "X-Request-Id": "stale-1" } });
      expect(stale.status).toBe(200);
      const warnings = stale.body.warnings.join(" ");
      expect(warnings).toContain("Stale answer");
      expect(warnings).toContain(SNAPSHOT_QUERY_FAILED);
      expect(warnings).not.toMatch(SQLITE_TEXT);

      // A point never cached: a 502 with the same fixed message, straight from the transport.
      const fresh = await loam.json("/v1/soil/location?latitude=41.9432&longitude=-94.3617", { headers: { "X-Request-Id": "fresh-1" } });
      expect(fresh.status).toBe(502);
      expect(fresh.body.error.message).toBe(SNAPSHOT_QUERY_FAILED);
      expect(String(loam.logs.find((line) => line.request_id === "fresh-1")?.detail)).toContain("malformed");
    } finally {
      await loam.stop();
    }
  });
});
