/**
 * Finding 3 of the hardening pass: cache keys and ETags held only provider + query, so after a
 * restart on another LOAM_SNAPSHOT, or with LOAM_UPSTREAM=sda, the old answer was served as a hit
 * under the new source's provenance. Keys and tags now carry the source's identity (the snapshot's
 * content hash, or the SDA URL). One LOAM_DB is kept across the three "restarts" here.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SdaTransport } from "../../src/upstream/sda/client";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { writeIdentity } from "../../src/upstream/snapshot-schema";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { startLoam, tempDbPath, testSnapshot, type StartOptions } from "../support/server";

const POINT = "/v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=ph,clay";

/**
 * A copy of the test snapshot rebuilt later: the same soil rows, another build date, and the identity a
 * build writes last (docs/decisions.md#snapshot-identity), so other content.
 */
async function rebuiltSnapshot(): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), "loam-rebuilt-snapshot-")), "snapshot.sqlite");
  copyFileSync(await testSnapshot(), path);
  const db = new Database(path);
  db.run("UPDATE snapshot_info SET value = '2031-01-02T03:04:05.000Z' WHERE key IN ('built_at', 'updated_at')");
  writeIdentity(db);
  db.close();
  return path;
}

/** One request on a Loam started over `options` with the shared LOAM_DB, then stopped (a restart). */
async function askOnce(dbPath: string, options: StartOptions, init?: RequestInit) {
  const loam = await startLoam({ ...options, dbPath });
  try {
    return await loam.json(POINT, init);
  } finally {
    await loam.stop();
  }
}

describe("a restart on another source never serves the old source's entry", () => {
  let fake: FakeSda;
  beforeAll(async () => {
    fake = startFakeSda({ answerer: new SnapshotTransport(await testSnapshot()) });
  });
  afterAll(() => fake.close());

  test("snapshot A, then a rebuilt snapshot B, then SDA: each first answer is a miss with its own provenance and tag", async () => {
    const dbPath = tempDbPath();
    const a1 = await askOnce(dbPath, {});
    const a2 = await askOnce(dbPath, {});
    // Same snapshot content after a restart: the entry is shared (and so is the tag).
    expect([a1.status, a1.body.cache.hit, a2.body.cache.hit]).toEqual([200, false, true]);
    expect(a2.headers.get("etag")).toBe(a1.headers.get("etag"));

    const b = await askOnce(dbPath, { source: new SnapshotTransport(await rebuiltSnapshot()) }, { headers: { "If-None-Match": a1.headers.get("etag")! } });
    expect(b.status).toBe(200);
    expect(b.body.cache.hit).toBe(false);
    expect(b.headers.get("etag")).not.toBe(a1.headers.get("etag"));
    expect(b.body.warnings.join(" ")).toContain("(built 2031-01-02)");

    const viaSda = await askOnce(dbPath, { source: new SdaTransport({ url: fake.url, timeoutMs: 5000 }), env: { LOAM_UPSTREAM: "sda" } }, { headers: { "If-None-Match": a1.headers.get("etag")! } });
    expect(viaSda.status).toBe(200);
    expect(viaSda.body.cache.hit).toBe(false);
    expect(fake.calls).toBe(1);
    expect(viaSda.body.warnings.join(" ")).not.toContain("offline snapshot");
    expect(new Set([a1, b, viaSda].map((answer) => answer.headers.get("etag"))).size).toBe(3);
    // The same values from every source: only the provenance differs.
    expect(viaSda.body.observations.map((o: { value: unknown }) => o.value)).toEqual(a1.body.observations.map((o: { value: unknown }) => o.value));
  });
});
