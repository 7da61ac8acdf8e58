import { describe, expect, test } from "bun:test";
import { openDatabase } from "../../db/client";
import { createUpstreamCache } from "../../src/upstream/cache";
import { UpstreamError, UpstreamTimeoutError, ValidationError } from "../../src/errors";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { queryKind, runQuery, type LogicalQuery } from "../support/queries";
import { Payload } from "../../src/upstream/transport";
import type { SdaAnswer } from "../../src/upstream/sda/payload";
import { tempDbPath, testSnapshot } from "../support/server";

const point = (i: number): LogicalQuery => ({ kind: "ssurgo_point", latitude: 41.944131 + i / 1e6, longitude: -94.359608 });

async function realAnswer(): Promise<SdaAnswer> {
  return runQuery(new SnapshotTransport(await testSnapshot()), point(0));
}

type Cache = ReturnType<typeof createUpstreamCache>;
const decode = (payload: Payload) => queryKind("ssurgo_point").decode(payload);
/** The cache as the providers use it: the query as a stable text, the payload stored, the provider's decoder. */
const get = (cache: Cache, provider: string, query: LogicalQuery, fetch: () => Promise<SdaAnswer>) =>
  cache.get(
    provider,
    "snapshot:test",
    JSON.stringify(query),
    async () => {
      const answer = await fetch();
      return { payload: Payload.ofJson(answer.payload), answer };
    },
    decode,
  );
const has = (cache: Cache, provider: string, query: LogicalQuery): Promise<boolean> => cache.has(provider, "snapshot:test", JSON.stringify(query));

function counted(answer: SdaAnswer) {
  const fetcher = async () => {
    fetcher.calls++;
    return answer;
  };
  fetcher.calls = 0;
  return fetcher;
}

describe("upstream cache", () => {
  test("a fresh entry is a hit with the stored answer; an expired one is fetched again", async () => {
    let clock = 1_800_000_000_000;
    const answer = await realAnswer();
    const cache = createUpstreamCache(openDatabase(tempDbPath()), { ttlSeconds: 60, now: () => clock });
    const fetch = counted(answer);
    const first = await get(cache, "usda_ssurgo", point(0), fetch);
    clock += 59_000;
    const second = await get(cache, "usda_ssurgo", point(0), fetch);
    expect([first.hit, second.hit, fetch.calls]).toEqual([false, true, 1]);
    expect(second.storedAt).toBe(first.storedAt);
    expect(second.answer.payload).toEqual(answer.payload);
    clock += 2_000;
    const third = await get(cache, "usda_ssurgo", point(0), fetch);
    expect([third.hit, fetch.calls]).toEqual([false, 2]);
  });

  test("the key is provider + normalized query: another point or provider is another entry", async () => {
    const cache = createUpstreamCache(openDatabase(tempDbPath()), { ttlSeconds: 600 });
    const fetch = counted(await realAnswer());
    await get(cache, "usda_ssurgo", point(0), fetch);
    await get(cache, "usda_ssurgo", point(1), fetch);
    await get(cache, "other", point(0), fetch);
    await get(cache, "usda_ssurgo", { ...point(0) }, fetch);
    expect(fetch.calls).toBe(3);
  });

  test("identical concurrent requests share one upstream call", async () => {
    const cache = createUpstreamCache(openDatabase(tempDbPath()), { ttlSeconds: 600 });
    const answer = await realAnswer();
    let calls = 0;
    const slow = async () => {
      calls++;
      await Bun.sleep(50);
      return answer;
    };
    const results = await Promise.all(Array.from({ length: 50 }, () => get(cache, "usda_ssurgo", point(7), slow)));
    expect(calls).toBe(1);
    expect(new Set(results.map((r) => r.storedAt)).size).toBe(1);
  });

  test("failures are never stored, and the next request asks the upstream again", async () => {
    const cache = createUpstreamCache(openDatabase(tempDbPath()), { ttlSeconds: 600 });
    let calls = 0;
    const failing = async (): Promise<SdaAnswer> => {
      calls++;
      throw new UpstreamError("SDA answered HTTP 500");
    };
    await expect(get(cache, "usda_ssurgo", point(3), failing)).rejects.toBeInstanceOf(UpstreamError);
    expect(await has(cache, "usda_ssurgo", point(3))).toBe(false);
    await expect(get(cache, "usda_ssurgo", point(3), failing)).rejects.toBeInstanceOf(UpstreamError);
    expect(calls).toBe(2);
  });

  test("stale-if-error serves an expired entry on an upstream failure, never on a non-upstream error", async () => {
    let clock = 1_800_000_000_000;
    const cache = createUpstreamCache(openDatabase(tempDbPath()), { ttlSeconds: 60, now: () => clock });
    const answer = await realAnswer();
    const stored = await get(cache, "usda_ssurgo", point(4), async () => answer);
    clock += 3_600_000;
    const stale = await get(cache, "usda_ssurgo", point(4), async () => {
      throw new UpstreamTimeoutError("no answer in 15000 ms");
    });
    expect(stale).toMatchObject({ hit: true, stale: true, storedAt: stored.storedAt });
    expect(stale.staleBecause?.code).toBe("upstream_timeout");
    await expect(
      get(cache, "usda_ssurgo", point(4), async () => {
        throw new ValidationError("bad query");
      }),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  test("the store is bounded: the oldest entries are evicted first", async () => {
    let clock = 1_800_000_000_000;
    const db = openDatabase(tempDbPath());
    const cache = createUpstreamCache(db, { ttlSeconds: 600, maxEntries: 3, memoryEntries: 0, now: () => clock });
    const answer = await realAnswer();
    for (let i = 0; i < 5; i++) {
      clock += 1000;
      await get(cache, "usda_ssurgo", point(10 + i), async () => answer);
    }
    const kept = db.$client.query("SELECT count(*) AS n FROM cache_entries").get() as { n: number };
    expect(kept.n).toBe(3);
    expect(await Promise.all([10, 11, 12, 13, 14].map((i) => has(cache, "usda_ssurgo", point(i))))).toEqual([false, false, true, true, true]);
  });

  test("CACHE_TTL_SECONDS=0 stores nothing", async () => {
    const db = openDatabase(tempDbPath());
    const cache = createUpstreamCache(db, { ttlSeconds: 0 });
    const fetch = counted(await realAnswer());
    await get(cache, "usda_ssurgo", point(20), fetch);
    await get(cache, "usda_ssurgo", point(20), fetch);
    expect(fetch.calls).toBe(2);
    expect((db.$client.query("SELECT count(*) AS n FROM cache_entries").get() as { n: number }).n).toBe(0);
  });
});
