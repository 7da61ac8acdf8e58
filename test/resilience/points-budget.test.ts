/**
 * Issue 37, item 9 (docs/decisions.md#upstream-budget): in live mode a 100-point request
 * (GET /v1/soil/points) that reaches the per-request cap of upstream queries answered 429 without
 * `Retry-After`, and with a `RateLimit-Remaining` counted before the queries it had spent. Loam runs in
 * SDA mode against the fake SDA (answering from the test snapshot) on 127.0.0.1; 100 distinct points
 * of IA073's extract each cost an upstream query.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { MAX_UPSTREAM_CALLS_PER_REQUEST } from "../../src/providers/connect";
import { SdaTransport } from "../../src/upstream/sda/client";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { startLoam, testSnapshot, type RunningLoam } from "../support/server";
import { distinctPoints } from "./support";

let fake: FakeSda | undefined;
let loam: RunningLoam | undefined;
afterEach(async () => {
  await loam?.stop();
  fake?.close();
});

async function start(limit: number): Promise<RunningLoam> {
  fake = startFakeSda({ answerer: new SnapshotTransport(await testSnapshot()) });
  loam = await startLoam({ source: new SdaTransport({ url: fake.url, timeoutMs: 20_000 }), env: { LOAM_UPSTREAM: "sda", RATE_LIMIT_PER_MINUTE: String(limit) } });
  return loam;
}

const POINTS = `/v1/soil/points?points=${distinctPoints(100).map((p) => `${p.latitude},${p.longitude}`).join(";")}&properties=clay`;

describe("GET /v1/soil/points at the per-request cap of upstream queries", () => {
  test("429 with Retry-After, and RateLimit-Remaining counts the queries the request spent", async () => {
    const loam = await start(1000);
    const response = await loam.get(POINTS);
    const body = (await response.json()) as any;
    expect([response.status, body.error?.code, body.error?.retryable]).toEqual([429, "rate_limited", true]);
    expect(body.error.message).toContain(`more than ${MAX_UPSTREAM_CALLS_PER_REQUEST} upstream queries`);
    // The queries fetched are cached: a retry goes further at once, so the wait is the shortest there is.
    expect(response.headers.get("retry-after")).toBe("1");
    // The request itself, and each upstream query after its first (the cap's worth): before, 999.
    const remaining = Number(response.headers.get("ratelimit-remaining"));
    expect(remaining).toBe(1000 - 1 - (MAX_UPSTREAM_CALLS_PER_REQUEST - 1));
    // The next request agrees: one unit fewer.
    const next = await loam.get("/health");
    expect(Number(next.headers.get("ratelimit-remaining"))).toBe(remaining - 1);
  }, 60_000);

  test("when the queries spend the client's whole budget: 429 with Retry-After equal to RateLimit-Reset and nothing remaining", async () => {
    const loam = await start(30);
    const response = await loam.get(POINTS);
    const body = (await response.json()) as any;
    expect([response.status, body.error?.code]).toEqual([429, "rate_limited"]);
    expect(body.error.message).toContain("spent the client's rate budget");
    expect(response.headers.get("ratelimit-remaining")).toBe("0");
    const reset = response.headers.get("ratelimit-reset");
    expect(Number(reset)).toBeGreaterThan(0);
    expect(response.headers.get("retry-after")).toBe(reset);
  }, 60_000);
});
