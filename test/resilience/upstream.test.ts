/**
 * Resilience against the upstream: a hanging Soil Data Access must cost each caller no more than the
 * deadline and must not slow /health; identical concurrent requests must share one upstream call.
 */
import { runQuery } from "../support/queries";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { contractFrom, type ContractChecker } from "../support/openapi";
import { startLoam, testSnapshot } from "../support/server";
import { SdaTransport } from "../../src/upstream/sda/client";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import type { Transport } from "../../src/upstream/transport";
import { distinctPoints, startChild, type ChildLoam } from "./support";

const TIMEOUT_MS = 1000;

describe("a hanging upstream (child process, LOAM_UPSTREAM=sda, UPSTREAM_TIMEOUT_MS=1000)", () => {
  let fake: FakeSda;
  let loam: ChildLoam;
  let contract: ContractChecker;

  beforeAll(async () => {
    fake = startFakeSda({ answerer: new SnapshotTransport(await testSnapshot()) });
    loam = await startChild({ env: { LOAM_UPSTREAM: "sda", SDA_URL: fake.url, UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) } });
    contract = await contractFrom(loam.base);
  });

  afterAll(async () => {
    await loam?.stop();
    fake?.close();
  });

  test("50 concurrent requests each answer 504 within the timeout plus three seconds; /health stays fast throughout", async () => {
    fake.setFault("hang");
    const before = fake.calls;
    const healthTimes: number[] = [];
    let waiting = true;
    const poll = (async () => {
      while (waiting) {
        const started = performance.now();
        const response = await fetch(`${loam.base}/health`, { signal: AbortSignal.timeout(2000) });
        await response.text();
        expect(response.status).toBe(200);
        healthTimes.push(performance.now() - started);
        await Bun.sleep(50);
      }
    })();

    const answers = await Promise.all(
      distinctPoints(50).map(async ({ latitude, longitude }) => {
        const started = performance.now();
        const response = await fetch(`${loam.base}/v1/soil/location?latitude=${latitude}&longitude=${longitude}`, { signal: AbortSignal.timeout(10_000) });
        const body = await response.json();
        return { status: response.status, body, ms: performance.now() - started, requestId: response.headers.get("x-request-id") };
      }),
    );
    waiting = false;
    await poll;
    fake.setFault(null);

    for (const answer of answers) {
      expect(answer.status).toBe(504);
      expect(answer.ms).toBeLessThan(TIMEOUT_MS + 3000);
      contract.assert("ErrorResponse", answer.body);
      expect(answer.body.error.code).toBe("upstream_timeout");
      expect(answer.body.error.retryable).toBe(true);
      expect(answer.body.error.request_id).toBe(answer.requestId);
    }
    // Every distinct point asked the upstream once; none was retried or cached.
    expect(fake.calls - before).toBe(50);
    expect(healthTimes.length).toBeGreaterThanOrEqual(5);
    // /health never waits for the hanging calls (each holds 1,000 ms); a busy machine adds its own noise.
    const sorted = [...healthTimes].sort((x, y) => x - y);
    expect(sorted[Math.floor(sorted.length / 2)]!).toBeLessThan(200);
    expect(sorted.at(-1)!).toBeLessThan(1000);
  }, 15_000);
});

describe("identical concurrent requests", () => {
  let fake: FakeSda;
  let snapshot: SnapshotTransport;

  beforeAll(async () => {
    snapshot = new SnapshotTransport(await testSnapshot());
    // An upstream that takes 300 ms, so every request arrives while the first call is in flight.
    const slow: Transport = {
      kind: "snapshot",
      describe: () => snapshot.describe(),
      async fetch(query, params) {
        await Bun.sleep(300);
        return snapshot.fetch(query, params);
      },
    };
    fake = startFakeSda({ answerer: slow });
  });

  afterAll(() => {
    fake?.close();
    snapshot?.close();
  });

  for (const ttl of ["604800", "0"]) {
    test(`200 identical concurrent requests cause exactly one upstream call (CACHE_TTL_SECONDS=${ttl})`, async () => {
      const loam = await startLoam({ source: new SdaTransport({ url: fake.url, timeoutMs: 5000 }), env: { LOAM_UPSTREAM: "sda", CACHE_TTL_SECONDS: ttl } });
      try {
        const before = fake.calls;
        const path = "/v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=ph,clay";
        const answers = await Promise.all(Array.from({ length: 200 }, () => loam.json(path)));
        expect(fake.calls - before).toBe(1);
        for (const answer of answers) {
          expect(answer.status).toBe(200);
          expect(answer.body.observations.length).toBeGreaterThan(0);
        }
        // All of them carry the one upstream answer (joining an in-flight call is not a cache hit).
        expect(new Set(answers.map((a) => a.body.cache.stored_at)).size).toBe(1);
        expect(answers.every((a) => a.body.cache.hit === false)).toBe(true);
      } finally {
        await loam.stop();
      }
    }, 15_000);
  }
});
