/**
 * Finding 12 of the hardening pass: with CACHE_TTL_SECONDS=0 the ETag changed on every request (it
 * was made of stored_at), and a stale answer shared one ETag with the fresh one although its warnings
 * differ. Tags are now a hash of the data served (source identity + the stored upstream answer's
 * digest + the answer's key), plus the stale warning's inputs when stale.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SdaTransport } from "../../src/upstream/sda/client";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { startLoam, testSnapshot, type RunningLoam } from "../support/server";

const POINT = "/v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=ph,clay";

describe("entity tags name the data, not the moment", () => {
  const started: RunningLoam[] = [];
  let fake: FakeSda;
  beforeAll(async () => {
    fake = startFakeSda({ answerer: new SnapshotTransport(await testSnapshot()) });
  });
  afterAll(async () => {
    for (const loam of started) await loam.stop();
    fake.close();
  });
  const start = async (...args: Parameters<typeof startLoam>) => {
    const loam = await startLoam(...args);
    started.push(loam);
    return loam;
  };

  test("CACHE_TTL_SECONDS=0: every request is fetched again, the tag stays, and If-None-Match is a 304", async () => {
    const loam = await start({ env: { CACHE_TTL_SECONDS: "0" } });
    const first = await loam.json(POINT);
    await Bun.sleep(1100);
    const second = await loam.json(POINT);
    expect([first.status, second.status, first.body.cache.hit, second.body.cache.hit]).toEqual([200, 200, false, false]);
    expect(second.body.cache.stored_at).not.toBe(first.body.cache.stored_at);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    const revalidated = await loam.get(POINT, { headers: { "If-None-Match": first.headers.get("etag")! } });
    expect(revalidated.status).toBe(304);
  });

  test("two replicas (separate LOAM_DB, clocks an hour apart) give the same tag, on the snapshot and through SDA", async () => {
    const hourLater = () => Date.now() + 3_600_000;
    const [a, b] = [await start(), await start({ now: hourLater })];
    const [ta, tb] = [(await a.json(POINT)).headers.get("etag"), (await b.json(POINT)).headers.get("etag")];
    expect(ta).toMatch(/^"[0-9a-z]+(-br|-gzip)?"$/);
    expect(tb).toBe(ta);

    const sda = () => new SdaTransport({ url: fake.url, timeoutMs: 5000 });
    const [c, d] = [await start({ source: sda(), env: { LOAM_UPSTREAM: "sda" } }), await start({ source: sda(), env: { LOAM_UPSTREAM: "sda" }, now: hourLater })];
    const [tc, td] = [(await c.json(POINT)).headers.get("etag"), (await d.json(POINT)).headers.get("etag")];
    expect(td).toBe(tc);
    // Another source is another tag (finding 3).
    expect(tc).not.toBe(ta);
  });

  test("a stale answer has its own tag: a client holding the fresh one gets the stale body with its warning, not a 304", async () => {
    let clock = Date.now();
    const loam = await start({ source: new SdaTransport({ url: fake.url, timeoutMs: 5000 }), env: { LOAM_UPSTREAM: "sda", CACHE_TTL_SECONDS: "60" }, now: () => clock });
    const fresh = await loam.json(POINT);
    expect(fresh.status).toBe(200);
    const freshTag = fresh.headers.get("etag")!;
    // A hit keeps the tag.
    clock += 5_000;
    const hit = await loam.json(POINT);
    expect([hit.body.cache.hit, hit.headers.get("etag")]).toEqual([true, freshTag]);

    clock += 120_000;
    fake.setFault("http-500");
    try {
      const stale = await loam.json(POINT, { headers: { "If-None-Match": freshTag } });
      expect(stale.status).toBe(200);
      expect(stale.body.warnings.join(" ")).toContain("Stale answer");
      const staleTag = stale.headers.get("etag")!;
      expect(staleTag).not.toBe(freshTag);
      // The stale representation revalidates as itself.
      expect((await loam.get(POINT, { headers: { "If-None-Match": staleTag } })).status).toBe(304);
    } finally {
      fake.setFault(null);
    }
  });
});
