/**
 * The upstream cache shared through Redis (REDIS_URL) by two Loam instances, each with its own
 * LOAM_DB, both in SDA mode against the fake SDA (which counts the calls it answers): an answer
 * stored by one instance is a hit on the other with the same stored_at; 100 identical concurrent
 * requests spread over both make one upstream call; a Redis killed mid-load costs no 5xx (answers go
 * on uncached), and a restarted Redis is shared again by itself.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SdaTransport } from "../../src/upstream/sda/client";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import type { Transport } from "../../src/upstream/transport";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { startLoam, testSnapshot, type RunningLoam } from "../support/server";
import { loadWhileKilling, metric, redisUp, startRedis, type RunningRedis } from "./support";

/** Points a few centimetres apart inside the IA073 known point's map unit (Clarion loam): one cache entry each. */
const point = (i: number) => `/v1/soil/location?latitude=${(41.944131 + i / 1e6).toFixed(6)}&longitude=-94.359608`;

let redis: RunningRedis;
let fake: FakeSda;
let a: RunningLoam;
let b: RunningLoam;

/** The snapshot answering for SDA, 40 ms late, so that concurrent requests really overlap the call. */
function slowAnswerer(snapshot: SnapshotTransport): Transport {
  return {
    kind: "snapshot",
    describe: () => snapshot.describe(),
    fetch: async (query, params) => {
      await Bun.sleep(40);
      return snapshot.fetch(query, params);
    },
  };
}

async function instance(): Promise<RunningLoam> {
  return startLoam({
    source: new SdaTransport({ url: fake.url, timeoutMs: 5000 }),
    // A generous REDIS_TIMEOUT_MS: on a busy 2-core machine a 100 ms bound times out healthy commands (a lock taken twice).
    env: { LOAM_UPSTREAM: "sda", REDIS_URL: redis.url, REDIS_TIMEOUT_MS: "1000", CACHE_TTL_SECONDS: "600" },
  });
}

beforeAll(async () => {
  redis = await startRedis();
  fake = startFakeSda({ answerer: slowAnswerer(new SnapshotTransport(await testSnapshot())) });
  a = await instance();
  b = await instance();
  await Promise.all([redisUp(a), redisUp(b)]);
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  fake?.close();
  await redis?.stop();
});

describe("one cache for two instances", () => {
  test("a point stored by A is a hit on B: same stored_at, same data, no second upstream call", async () => {
    const calls = fake.calls;
    const first = await a.json(point(1));
    expect(first.status).toBe(200);
    expect(first.body.cache.hit).toBe(false);
    expect(JSON.stringify(first.body)).toContain("Clarion");
    const second = await b.json(point(1));
    expect(second.status).toBe(200);
    expect(second.body.cache.hit).toBe(true);
    expect(second.body.cache.stored_at).toBe(first.body.cache.stored_at);
    expect(second.body.observations).toEqual(first.body.observations);
    expect(fake.calls - calls).toBe(1);
    // B's own LOAM_DB holds no entry: the hit came from Redis.
    expect(b.db.$client.query("SELECT count(*) AS n FROM cache_entries").get()).toEqual({ n: 0 });
  });

  test("100 identical concurrent requests spread over both instances make one upstream call", async () => {
    const calls = fake.calls;
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).json(point(2))));
    expect(answers.map((r) => r.status)).toEqual(Array(100).fill(200));
    expect(fake.calls - calls).toBe(1);
    expect(new Set(answers.map((r) => r.body.cache.stored_at)).size).toBe(1);
    expect(new Set(answers.map((r) => JSON.stringify(r.body.observations))).size).toBe(1);
  });
});

describe("Redis failures", () => {
  test("killing Redis mid-load: no 5xx; answers go on uncached; counted in /metrics", async () => {
    const { statuses, before } = await loadWhileKilling(redis, [b, a], { workers: 6, pathOf: (i) => point(10 + (i % 5)), afterKillMs: 600 });
    expect(before).toBeGreaterThan(0);
    expect(statuses.length).toBeGreaterThan(before + 10);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    for (const loam of [a, b]) {
      expect(await metric(loam, "loam_redis_up")).toBe(0);
      expect(await metric(loam, "loam_redis_failures_total")).toBeGreaterThan(0);
    }
    // Redis down: a new point is fetched by each instance (nothing shared), and still answered.
    const calls = fake.calls;
    const fromA = await a.json(point(20));
    const fromB = await b.json(point(20));
    expect([fromA.status, fromB.status]).toEqual([200, 200]);
    expect([fromA.body.cache.hit, fromB.body.cache.hit]).toEqual([false, false]);
    expect(fake.calls - calls).toBe(2);
  });

  test("a restarted Redis is shared again by itself", async () => {
    await redis.restart();
    await Promise.all([redisUp(a), redisUp(b)]);
    const calls = fake.calls;
    const first = await a.json(point(30));
    const second = await b.json(point(30));
    expect([first.body.cache.hit, second.body.cache.hit]).toEqual([false, true]);
    expect(second.body.cache.stored_at).toBe(first.body.cache.stored_at);
    expect(fake.calls - calls).toBe(1);
  });
});
