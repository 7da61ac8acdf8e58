/**
 * The Redis pieces the cache is built on, with two connections standing for two instances: an entry
 * stored by one is read by the other, with its payload and times intact; 100 identical concurrent
 * questions spread over both make one upstream call; and Redis down makes a miss and a lone call,
 * never an error.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LoamRedis, waitUntilUp } from "../../src/redis/client";
import { createRedisCacheStore, type StoredEntry } from "../../src/redis/cache-store";
import { createRedisSingleFlight } from "../../src/redis/single-flight";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { pointQuery } from "../../src/providers/usda_ssurgo/queries";
import { testSnapshot } from "../support/server";
import { startRedis, type RunningRedis } from "./support";

let redis: RunningRedis;
let a: LoamRedis;
let b: LoamRedis;
let source: SnapshotTransport;

beforeAll(async () => {
  redis = await startRedis();
  a = new LoamRedis({ url: redis.url, timeoutMs: 200 });
  b = new LoamRedis({ url: redis.url, timeoutMs: 200 });
  expect(await waitUntilUp(a, 3000)).toBe(true);
  expect(await waitUntilUp(b, 3000)).toBe(true);
  source = new SnapshotTransport(await testSnapshot());
});
afterAll(async () => {
  a?.close();
  b?.close();
  source?.close?.();
  await redis?.stop();
});

/** A real upstream answer: the snapshot's map units at the IA073 known point, as a payload text. */
async function realPayload(): Promise<string> {
  const text = (await source.fetch(pointQuery, { latitude: 41.944131, longitude: -94.359608 })).text();
  if (!text.includes("Clarion")) throw new Error("the IA073 known point no longer answers Clarion loam");
  return text;
}

describe("cache entries in Redis", () => {
  test("an entry stored through one connection is read through the other, payload and times intact", async () => {
    const storeA = createRedisCacheStore(a);
    const storeB = createRedisCacheStore(b);
    const payload = await realPayload();
    const storedAt = Date.now();
    const entry: StoredEntry = { payload, storedAt, expiresAt: storedAt + 60_000, provider: "ssurgo" };
    const key = "ssurgo\u0000mapunits_at_point\u000041.944131,-94.359608";
    expect(await storeB.get(key)).toBeNull();
    expect(await storeA.set(key, entry)).toBe(true);
    expect(await storeB.get(key)).toEqual(entry);
    expect(await storeB.get(`${key}x`)).toBeNull();
  });

  test("an expired entry is kept for stale-if-error, then dropped by Redis itself", async () => {
    let clock = Date.now();
    const store = createRedisCacheStore(a, { staleSeconds: 0.3, now: () => clock });
    const entry: StoredEntry = { payload: "{}", storedAt: clock - 1000, expiresAt: clock - 100, provider: "kssl" };
    expect(await store.set("old", entry)).toBe(true); // expired, still within the stale retention
    expect((await store.get("old"))?.expiresAt).toBe(entry.expiresAt);
    await Bun.sleep(300);
    expect(await store.get("old")).toBeNull();
    clock += 10_000;
    expect(await store.set("older", entry)).toBe(false); // past its retention: not stored at all
  });
});

describe("single flight across instances", () => {
  test("100 identical concurrent questions over two instances make one upstream call; all get its answer", async () => {
    const stores = [createRedisCacheStore(a), createRedisCacheStore(b)];
    const flights = [createRedisSingleFlight(a, { lockMs: 5000, waitMs: 5000 }), createRedisSingleFlight(b, { lockMs: 5000, waitMs: 5000 })];
    const key = `kssl\u0000pedon\u0000${crypto.randomUUID()}`;
    let calls = 0;
    const results = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const store = stores[i % 2]!;
        return flights[i % 2]!.run(key, {
          lookup: async () => (await store.get(key))?.payload,
          produce: async () => {
            calls++;
            const payload = await realPayload();
            await Bun.sleep(100); // an upstream that takes its time
            await store.set(key, { payload, storedAt: Date.now(), expiresAt: Date.now() + 60_000, provider: "kssl" });
            return payload;
          },
        });
      }),
    );
    expect(calls).toBe(1);
    expect(new Set(results.map((r) => r.value)).size).toBe(1);
    expect(results.filter((r) => r.role === "leader")).toHaveLength(1);
    expect(results.filter((r) => r.role === "follower")).toHaveLength(99);
  });

  test("a failed leader stores nothing: the next waiter takes the lock and asks once more, not everyone", async () => {
    const flight = createRedisSingleFlight(a, { lockMs: 5000, waitMs: 5000 });
    const key = `sda\u0000${crypto.randomUUID()}`;
    let calls = 0;
    let stored: string | undefined;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        flight.run(key, {
          lookup: async () => stored,
          produce: async () => {
            calls++;
            await Bun.sleep(50);
            if (calls === 1) throw new Error("upstream timed out");
            stored = "answer";
            return stored;
          },
        }),
      ),
    );
    expect(calls).toBe(2);
    expect(outcomes.filter((o) => o.status === "rejected")).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === "fulfilled" && o.value.value === "answer")).toHaveLength(19);
  });

  test("Redis down: a miss, a skipped write, and each question answered alone (no error, no wait)", async () => {
    const store = createRedisCacheStore(a);
    const flight = createRedisSingleFlight(a, { lockMs: 5000, waitMs: 5000 });
    await redis.kill();
    try {
      await a.send("PING", []).catch(() => undefined); // the connection notices the loss
      const started = performance.now();
      expect(await store.get("anything")).toBeNull();
      expect(await store.set("anything", { payload: "{}", storedAt: Date.now(), expiresAt: Date.now() + 1000, provider: "kssl" })).toBe(false);
      const result = await flight.run("anything", { lookup: async () => undefined, produce: async () => "fresh" });
      expect(result).toEqual({ value: "fresh", role: "alone" });
      expect(performance.now() - started).toBeLessThan(200);
      expect(a.stats().up).toBe(false);
    } finally {
      await redis.restart();
    }
    expect(await waitUntilUp(a, 5000)).toBe(true);
    expect(await store.set("anything", { payload: "{}", storedAt: Date.now(), expiresAt: Date.now() + 1000, provider: "kssl" })).toBe(true);
  });
});
