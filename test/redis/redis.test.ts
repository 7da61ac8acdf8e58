/**
 * Several Loam instances on one real Redis (REDIS_URL): one rate budget per client between them, and
 * Redis failures never reach clients: killed or frozen mid-load, every answer is still a 200, the
 * outage is logged once and counted in /metrics, and a restarted Redis is used again by itself.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startLoam, type RunningLoam } from "../support/server";
import { loadWhileKilling, metric, redisUp, startRedis, until, type RunningRedis } from "./support";

const KNOWN_POINT = "/v1/soil/location?latitude=41.944131&longitude=-94.359608";

let redis: RunningRedis;
const running: RunningLoam[] = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const loam of running.splice(0)) await loam.stop();
  await redis?.stop();
});

async function instance(env: Record<string, string>, now?: () => number): Promise<RunningLoam> {
  const loam = await startLoam({ env: { REDIS_URL: redis.url, REDIS_TIMEOUT_MS: "100", ...env }, now });
  running.push(loam);
  return loam;
}

describe("two instances on one Redis", () => {
  test("share one budget per client: exactly RATE_LIMIT_PER_MINUTE requests between them, one by one and concurrently", async () => {
    // One instant for both (mid-minute), so the whole test falls in one window.
    const minute = Math.floor(Date.now() / 60_000) * 60_000 + 30_000;
    const a = await instance({ RATE_LIMIT_PER_MINUTE: "10" }, () => minute);
    const b = await instance({ RATE_LIMIT_PER_MINUTE: "10" }, () => minute);
    await Promise.all([redisUp(a), redisUp(b)]);
    // Alternating one by one: each instance sees the count the other left.
    const sequential: Response[] = [];
    for (let i = 0; i < 6; i++) sequential.push(await (i % 2 ? a : b).get("/health"));
    expect(sequential.map((r) => [r.status, r.headers.get("ratelimit-remaining")])).toEqual([9, 8, 7, 6, 5, 4].map((n) => [200, String(n)]));
    // Then 24 at once over both: exactly the 4 left are allowed.
    const concurrent = await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? a : b).get("/health")));
    const answers = [...sequential, ...concurrent];
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    const remaining = concurrent.filter((r) => r.status === 200).map((r) => Number(r.headers.get("ratelimit-remaining")));
    expect(remaining.sort((x, y) => x - y)).toEqual([0, 1, 2, 3]);
    const refused = answers.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get("retry-after"))).toBe(30);
    expect((await refused.json()).error.code).toBe("rate_limited");
    await Promise.all(answers.map((r) => r.arrayBuffer().catch(() => undefined)));
  });
});

describe("Redis failures", () => {
  let a: RunningLoam;
  let b: RunningLoam;
  beforeAll(async () => {
    a = await instance({ RATE_LIMIT_PER_MINUTE: "100000" });
    b = await instance({ RATE_LIMIT_PER_MINUTE: "100000" });
    await Promise.all([redisUp(a), redisUp(b)]);
  });

  test("killing Redis mid-load: no 5xx, every answer a 200; logged once per instance, counted in /metrics", async () => {
    const { statuses, before } = await loadWhileKilling(redis, [b, a], { workers: 8, pathOf: (i) => (i % 3 === 0 ? "/health" : KNOWN_POINT), afterKillMs: 700 });
    expect(before).toBeGreaterThan(0);
    expect(statuses.length).toBeGreaterThan(before + 20);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    for (const loam of [a, b]) {
      expect(await metric(loam, "loam_redis_up")).toBe(0);
      expect(await metric(loam, "loam_redis_failures_total")).toBeGreaterThan(0);
      expect(await metric(loam, "loam_redis_outages_total")).toBe(1);
      const outageLines = loam.logs.filter((line) => String(line.msg).startsWith("redis unavailable"));
      expect(outageLines).toHaveLength(1);
      expect(String(outageLines[0]!.redis)).toContain(`127.0.0.1:${redis.port}`);
    }
    // Failing open: the budget headers show nothing was counted.
    const open = await a.get("/health");
    expect(open.status).toBe(200);
    expect(open.headers.get("ratelimit-remaining")).toBe("100000");
  });

  test("a restarted Redis is used again by itself: counting resumes, the recovery is logged", async () => {
    await redis.restart();
    await Promise.all([redisUp(a), redisUp(b)]);
    const first = await a.get("/health");
    const second = await b.get("/health");
    // The restarted Redis is empty: these are the first two requests of the window, counted once each.
    expect([first.headers.get("ratelimit-remaining"), second.headers.get("ratelimit-remaining")]).toEqual(["99999", "99998"]);
    for (const loam of [a, b]) {
      expect(loam.logs.filter((line) => line.msg === "redis reachable again")).toHaveLength(1);
    }
  });

  test("a frozen Redis (no answers) costs a request at most REDIS_TIMEOUT_MS once, then nothing until it answers again", async () => {
    // A timeout far above what a request takes on a busy 2-core machine, so waiting for it stands out of the noise.
    const c = await instance({ RATE_LIMIT_PER_MINUTE: "100000", REDIS_TIMEOUT_MS: "1500" });
    await redisUp(c);
    await (await c.get(KNOWN_POINT)).arrayBuffer();
    redis.freeze();
    try {
      const times: number[] = [];
      for (let i = 0; i < 15; i++) {
        const started = performance.now();
        const response = await c.get(KNOWN_POINT);
        await response.arrayBuffer();
        expect(response.status).toBe(200);
        times.push(performance.now() - started);
      }
      // The first request waits for the 1,500 ms timeout; the rest do not try Redis at all.
      expect(times[0]!).toBeGreaterThanOrEqual(1400);
      const rest = times.slice(1).sort((x, y) => x - y);
      expect(rest[Math.floor(rest.length / 2)]!).toBeLessThan(700);
      expect(rest.filter((t) => t >= 1500)).toEqual([]);
      expect(await metric(c, "loam_redis_up")).toBe(0);
    } finally {
      redis.thaw();
    }
    await redisUp(a);
    const counted = await a.get("/health");
    expect(Number(counted.headers.get("ratelimit-remaining"))).toBeLessThan(100000);
  });
});

describe("Redis unreachable from the start", () => {
  test("Loam starts and answers, logs it once, and counts it", async () => {
    const loam = await startLoam({ env: { REDIS_URL: "redis://127.0.0.1:1/0", REDIS_TIMEOUT_MS: "100" } });
    running.push(loam);
    const answers = await Promise.all(Array.from({ length: 10 }, () => loam.get(KNOWN_POINT)));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    await Promise.all(answers.map((r) => r.arrayBuffer()));
    await until("the outage logged", async () => loam.logs.some((line) => String(line.msg).startsWith("redis unreachable")));
    await Bun.sleep(500); // several reconnect attempts later, still one line
    expect(loam.logs.filter((line) => String(line.msg).startsWith("redis unreachable"))).toHaveLength(1);
    expect(await metric(loam, "loam_redis_up")).toBe(0);
    expect(await metric(loam, "loam_redis_failures_total")).toBeGreaterThanOrEqual(10);
  });
});
