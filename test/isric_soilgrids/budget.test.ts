/**
 * SoilGrids' upstream call budget is shared (docs/decisions.md#upstream-call-budget): two Loam instances
 * on one real redis-server, and two apps on one LOAM_DB file without Redis (the LOAM_WORKERS layout),
 * each with SOILGRIDS_REQUESTS_PER_MINUTE=2 against one stand-in on 127.0.0.1 replaying the real REST
 * answer (soilgrids/rest_api/SoilMates_sampleData.extracted.json). Distinct points over both make at
 * most 2 upstream calls in the minute; the third is a 503 upstream_budget_exhausted with Retry-After on
 * either; the next minute (an injected clock, no sleeping) has a fresh budget. Each request comes from a
 * client of its own (X-Forwarded-For, TRUST_PROXY=1): one client may spend only its share of the budget
 * (test/isric_soilgrids/fairness.test.ts), and what is held here is the budget all clients share.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { SdaTransport } from "../../src/upstream/sda/client";
import { DATA_DIR, startLoam, tempDbPath, type RunningLoam } from "../support/server";
import { redisUp, startRedis, type RunningRedis } from "../redis/support";

const REAL = await Bun.file(join(DATA_DIR, "soilgrids/rest_api/SoilMates_sampleData.extracted.json")).text();
const claySurface = JSON.parse(REAL).properties.layers.find((l: any) => l.name === "clay").depths.find((d: any) => d.label === "0-5cm").values.mean;

const asked: URL[] = [];
const standIn = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request) {
    asked.push(new URL(request.url));
    return new Response(REAL, { headers: { "content-type": "application/json" } });
  },
});
afterAll(() => standIn.stop(true));

/** 30 s into a minute: Retry-After is 30 until the clock is moved on. */
let clock = Date.UTC(2026, 0, 5, 12, 0, 30);
const now = () => clock;
const modeled = (i: number) => `/v1/soil/modeled?latitude=${(10 + i / 100).toFixed(2)}&longitude=20&properties=clay&depth_bottom_cm=5`;
/** Point i asked by a client of its own. */
const ask = (loam: RunningLoam, i: number) => loam.json(modeled(i), { headers: { "x-forwarded-for": `192.0.2.${i + 1}` } });

function instance(path: string, env: Record<string, string>, dbPath?: string): Promise<RunningLoam> {
  return startLoam({
    source: new SdaTransport({ url: "http://127.0.0.1:9/never", timeoutMs: 1000 }),
    now,
    dbPath,
    env: { LOAM_UPSTREAM: "sda", SOILGRIDS_URL: `http://127.0.0.1:${standIn.port}/${path}/query`, SOILGRIDS_REQUESTS_PER_MINUTE: "2", TRUST_PROXY: "1", ...env },
  });
}

/** The budget's promise over two instances, whatever shares the counter. */
async function budgetIsShared(a: RunningLoam, b: RunningLoam, path: string, first: number): Promise<void> {
  const calls = () => asked.filter((u) => u.pathname === `/${path}/query`).length;
  const one = await ask(a, first);
  const two = await ask(b, first + 1);
  expect([one.status, two.status]).toEqual([200, 200]);
  expect(one.body.observations[0].source.original_value).toBe(claySurface);
  expect(calls()).toBe(2);
  for (const [loam, i] of [[a, first + 2], [b, first + 3]] as const) {
    const refused = await ask(loam, i);
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatchObject({ code: "upstream_budget_exhausted", retryable: true, provider: "isric_soilgrids" });
    expect(refused.headers.get("retry-after")).toBe("30");
  }
  expect(calls()).toBe(2);
  // A point asked before is answered from the shared cache on the other instance: no budget, no call.
  const again = await ask(b, first);
  expect([again.status, again.body.cache.hit]).toEqual([200, true]);
  expect(calls()).toBe(2);
  // The next minute has its budget again.
  clock += 60_000;
  const next = await ask(b, first + 2);
  expect(next.status).toBe(200);
  expect(calls()).toBe(3);
}

describe("two instances on one redis-server", () => {
  let redis: RunningRedis;
  let a: RunningLoam;
  let b: RunningLoam;
  beforeAll(async () => {
    redis = await startRedis();
    const env = { REDIS_URL: redis.url, REDIS_TIMEOUT_MS: "1000", CACHE_TTL_SECONDS: "600" };
    // Each its own LOAM_DB: only Redis is shared.
    a = await instance("redis", env);
    b = await instance("redis", env);
    await Promise.all([redisUp(a), redisUp(b)]);
  }, 120_000);
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await redis?.stop();
  });

  test("distinct points over both make at most SOILGRIDS_REQUESTS_PER_MINUTE (2) calls in the minute; the third is 503 with Retry-After on either", async () => {
    clock = Date.UTC(2026, 0, 5, 12, 0, 30);
    await budgetIsShared(a, b, "redis", 0);
  });
});

describe("two apps on one LOAM_DB file, without Redis (the LOAM_WORKERS layout)", () => {
  let a: RunningLoam;
  let b: RunningLoam;
  beforeAll(async () => {
    const dbPath = tempDbPath();
    a = await instance("shared-db", { CACHE_TTL_SECONDS: "600" }, dbPath);
    b = await instance("shared-db", { CACHE_TTL_SECONDS: "600" }, dbPath);
  }, 120_000);
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  test("distinct points over both make at most 2 calls in the minute; the third is 503 with Retry-After on either", async () => {
    clock = Date.UTC(2026, 0, 5, 13, 0, 30);
    await budgetIsShared(a, b, "shared-db", 50);
  });

  test("apart, each LOAM_DB has a budget of its own: the check can fail", async () => {
    clock = Date.UTC(2026, 0, 5, 14, 0, 30);
    // The same SOILGRIDS_URL (the budget is named by it), another LOAM_DB file.
    const c = await instance("shared-db", { CACHE_TTL_SECONDS: "600" });
    try {
      // a and b spent this minute's two between them; c, on another LOAM_DB, still has its own two.
      expect((await ask(a, 80)).status).toBe(200);
      expect((await ask(b, 81)).status).toBe(200);
      expect((await ask(c, 82)).status).toBe(200);
      expect((await ask(a, 83)).status).toBe(503);
    } finally {
      await c.stop();
    }
  });
});
