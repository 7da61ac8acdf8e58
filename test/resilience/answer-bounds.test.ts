/**
 * Finding 5 of the hardening pass: one 20 MB upstream answer (under the 32 MB body cap) became a
 * 308 MB body and 2.1 GB of RSS, re-normalized on every hit; and the cache was bounded by entry count
 * only. Now an upstream answer beyond MAX_ANSWER_ROWS is a 502 upstream_error before normalization
 * (never cached), and LOAM_DB keeps at most CACHE_MAX_BYTES of answers, evicting the oldest first.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MAX_ANSWER_ROWS } from "../../src/upstream/sda/payload";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import type { Transport } from "../../src/upstream/transport";
import { rewritingRows } from "../support/rewritten-answers";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { startLoam, testSnapshot } from "../support/server";
import { distinctPoints, startChild, type ChildLoam } from "./support";

const BIG_LATITUDE = 41.944131;
const BIG_POINT = `/v1/soil/location?latitude=${BIG_LATITUDE}&longitude=-94.359608`;
const TARGET_BYTES = 20 * 1024 * 1024;

/**
 * The snapshot's answers, except that the point at BIG_LATITUDE answers with its real rows repeated
 * to about 20 MB: SDA's wire shape, real values, far too many rows.
 */
function inflating(snapshot: SnapshotTransport): Transport {
  return rewritingRows(snapshot, "ssurgo_point", (rows, params) => {
    if ((params as { latitude?: number }).latitude !== BIG_LATITUDE) return null;
    const rowBytes = JSON.stringify(rows).length / rows.length;
    const copies = Math.ceil(TARGET_BYTES / rowBytes / rows.length);
    return Array.from({ length: copies }, () => rows).flat();
  });
}

describe("a 20 MB upstream answer (SDA mode, Loam as a child process)", () => {
  let fake: FakeSda;
  let loam: ChildLoam;
  beforeAll(async () => {
    fake = startFakeSda({ answerer: inflating(new SnapshotTransport(await testSnapshot())) });
    loam = await startChild({ env: { LOAM_UPSTREAM: "sda", SDA_URL: fake.url, RATE_LIMIT_PER_MINUTE: "100000" } });
  });
  afterAll(async () => {
    await loam.stop();
    fake.close();
  });

  test("is a prompt 502 upstream_error naming the row bound; memory stays bounded; it is not cached", async () => {
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const response = await fetch(loam.base + BIG_POINT);
      const text = await response.text();
      expect(response.status).toBe(502);
      expect(text.length).toBeLessThan(2000);
      const error = JSON.parse(text).error;
      expect(error.code).toBe("upstream_error");
      expect(error.message).toContain(`at most ${MAX_ANSWER_ROWS} rows`);
      expect(performance.now() - started).toBeLessThan(5000);
    }
    // Each request went to the upstream again: the refused answer was never stored.
    expect(fake.calls).toBe(3);
    expect(loam.memory().peakMb).toBeLessThan(600);
    // Other points answer as usual.
    const [other] = distinctPoints(1);
    const normal = await fetch(`${loam.base}/v1/soil/location?latitude=${other!.latitude}&longitude=${other!.longitude}`);
    expect(normal.status).toBe(200);
    expect(((await normal.json()) as { observations: unknown[] }).observations.length).toBeGreaterThan(0);
  }, 60_000);
});

describe("CACHE_MAX_BYTES bounds LOAM_DB by bytes, oldest entries first", () => {
  // A snapshot point answer is stored as its typed cells, about 6 KB (docs/decisions.md#decode-once; 14 KB as SDA text before 0.5.0).
  test("300 distinct points (~6 KB each) under a 1 MiB bound: the total stays under it, the oldest points were evicted", async () => {
    const bound = 1_048_576;
    const loam = await startLoam({ env: { CACHE_MAX_BYTES: String(bound) } });
    try {
      const points = distinctPoints(300);
      const path = ({ latitude, longitude }: { latitude: string; longitude: string }) => `/v1/soil/location?latitude=${latitude}&longitude=${longitude}`;
      for (const point of points) expect((await loam.json(path(point))).status).toBe(200);
      const stored = loam.db.$client.query<{ n: number; bytes: number }, []>("SELECT count(*) AS n, sum(bytes) AS bytes FROM cache_entries").get()!;
      expect(stored.bytes).toBeLessThanOrEqual(bound);
      expect(stored.bytes).toBeGreaterThan(bound * 0.8);
      expect(stored.n).toBeLessThan(300);
      expect((await loam.json(path(points.at(-1)!))).body.cache.hit).toBe(true);
      expect((await loam.json(path(points[0]!))).body.cache.hit).toBe(false);
    } finally {
      await loam.stop();
    }
  });

  test("CACHE_MAX_BYTES below 1 MiB is refused at start, naming the variable", async () => {
    const { loadConfig } = await import("../../src/config");
    expect(() => loadConfig({ CACHE_MAX_BYTES: "1000" })).toThrow(/CACHE_MAX_BYTES/);
  });
});
