/**
 * Finding 8 of the hardening pass: while the upstream hung, every request for an expired entry waited
 * the full UPSTREAM_TIMEOUT_MS before stale-if-error answered. Now, after BREAKER_FAILURES consecutive
 * failures, the SDA transport's breaker opens for BREAKER_OPEN_MS: an expired entry is served stale at
 * once, a missing one fails fast with the 504 of the failure that opened it, and no call reaches SDA;
 * then one probe is let through, and a success closes the breaker.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BREAKER_FAILURES, BREAKER_OPEN_MS } from "../../src/upstream/breaker";
import { SdaTransport } from "../../src/upstream/sda/client";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { startLoam, testSnapshot, type RunningLoam } from "../support/server";
import { distinctPoints } from "./support";

const TIMEOUT_MS = 400;
const points = distinctPoints(12).map(({ latitude, longitude }) => `/v1/soil/location?latitude=${latitude}&longitude=${longitude}`);

async function timed(loam: RunningLoam, path: string) {
  const started = performance.now();
  const answer = await loam.json(path);
  return { ...answer, ms: performance.now() - started };
}

/** The breaker's counters in /metrics. */
async function breakerCounts(loam: RunningLoam): Promise<{ opened: number; fastFailures: number }> {
  const text = await (await loam.get("/metrics")).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, "m").exec(text)?.[1] ?? Number.NaN);
  return { opened: value("loam_breaker_opened_total"), fastFailures: value("loam_breaker_fast_failures_total") };
}

describe("circuit breaker on a hanging SDA", () => {
  let fake: FakeSda;
  let loam: RunningLoam;
  beforeAll(async () => {
    fake = startFakeSda({ answerer: new SnapshotTransport(await testSnapshot()) });
    loam = await startLoam({
      source: new SdaTransport({ url: fake.url, timeoutMs: TIMEOUT_MS }),
      env: { LOAM_UPSTREAM: "sda", UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS), CACHE_TTL_SECONDS: "1" },
    });
  });
  afterAll(async () => {
    await loam.stop();
    fake.close();
  });

  test("opens after consecutive failures: stale at once, fast 504 without a stale copy, a probe after the pause closes it", async () => {
    const cached = points[0]!;
    expect((await loam.json(cached)).status).toBe(200);
    await Bun.sleep(1100); // the entry expires
    fake.setFault("hang");

    // Closed: each failure waits the upstream timeout.
    for (const path of points.slice(1, 1 + BREAKER_FAILURES)) {
      const answer = await timed(loam, path);
      expect(answer.status).toBe(504);
      expect(answer.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    }
    const callsWhenOpened = fake.calls;

    // Open: the expired entry is served stale at once.
    const stale = await timed(loam, cached);
    expect(stale.status).toBe(200);
    expect(stale.ms).toBeLessThan(TIMEOUT_MS / 2);
    expect(stale.body.warnings.join(" ")).toContain("Stale answer");
    expect(stale.body.observations.length).toBeGreaterThan(0);
    // A point with no copy fails fast with the failure's class, as a structured error.
    const fast = await timed(loam, points[7]!);
    expect(fast.status).toBe(504);
    expect(fast.body.error.code).toBe("upstream_timeout");
    expect(fast.body.error.retryable).toBe(true);
    expect(fast.ms).toBeLessThan(TIMEOUT_MS / 2);
    expect(fake.calls).toBe(callsWhenOpened);
    // An operator sees it: one opening, two calls failed at once (the stale answer's and the 504's).
    expect(await breakerCounts(loam)).toEqual({ opened: 1, fastFailures: 2 });

    // Half-open with SDA still hanging: one probe waits and fails, which opens the breaker again.
    await Bun.sleep(BREAKER_OPEN_MS + 100);
    const probe = await timed(loam, points[8]!);
    expect(probe.status).toBe(504);
    expect(probe.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(fake.calls).toBe(callsWhenOpened + 1);
    const again = await timed(loam, points[9]!);
    expect([again.status, again.ms < TIMEOUT_MS / 2, fake.calls]).toEqual([504, true, callsWhenOpened + 1]);
    expect(await breakerCounts(loam)).toEqual({ opened: 2, fastFailures: 3 });

    // SDA recovers: after the pause the probe succeeds and the breaker closes.
    fake.setFault(null);
    await Bun.sleep(BREAKER_OPEN_MS + 100);
    expect((await loam.json(points[10]!)).status).toBe(200);
    const fresh = await loam.json(cached);
    expect(fresh.status).toBe(200);
    expect(fresh.body.cache.hit).toBe(false);
    expect(fresh.body.warnings.join(" ")).not.toContain("Stale answer");
  }, 30_000);
});
