/**
 * Finding 1 of the hardening pass: the rate limit and the repeated-parameter check held only for
 * requests whose Host header Bun accepts as a host. With `Host: a/b` (or `a?x`, `a#`, `a b`, `a@b`)
 * or HTTP/1.0 without Host, `request.url` is the bare target and the path was never found, so the
 * budget was never spent. Also `/health/` and `/openapi.json/` were not counted. Raw TCP requests.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startLoam, type RunningLoam } from "../support/server";
import { rawGet } from "./raw-http";

const POINT = "/v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=ph";
const ODD_HOSTS = ["a/b", "a?x", "a#", "a b", "a@b"];
const LIMIT = 4;
// A fixed clock in the middle of a minute keeps every request of a test in one window.
const minute = Math.floor(Date.now() / 60_000) * 60_000 + 20_000;

describe("rate limit whatever the Host header holds (raw TCP)", () => {
  let loam: RunningLoam;
  let port: number;
  // TRUST_PROXY=0: each test is one socket address; a fresh server per test gives a fresh budget.
  beforeAll(async () => {
    loam = await startLoam({ env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) }, now: () => minute });
    port = Number(new URL(loam.base).port);
  });
  afterAll(() => loam.stop());

  test("a data request with an odd Host is counted and refused once the budget is spent", async () => {
    const statuses: number[] = [];
    for (const host of ODD_HOSTS) {
      const answer = await rawGet(port, POINT, host);
      statuses.push(answer.status);
      // Every counted answer carries the RateLimit headers, refusals included.
      expect(answer.headers.get("ratelimit-limit")).toBe(String(LIMIT));
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    const noHost = await rawGet(port, POINT, null, "1.0");
    expect(noHost.status).toBe(429);
    expect(JSON.parse(noHost.body).error.code).toBe("rate_limited");
    expect(noHost.headers.get("retry-after")).toBe("40");
  });
});

describe("HTTP/1.0 without Host, trailing slashes, repeated parameters", () => {
  test("HTTP/1.0 without Host spends the budget like any request", async () => {
    const loam = await startLoam({ env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) }, now: () => minute });
    const port = Number(new URL(loam.base).port);
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) statuses.push((await rawGet(port, POINT, null, "1.0")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    await loam.stop();
  });

  test("/health/ and /openapi.json/ count as /health and /openapi.json", async () => {
    const loam = await startLoam({ env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) }, now: () => minute });
    const remaining: string[] = [];
    for (const path of ["/health/", "/openapi.json/", "/health//", "/openapi.json/", "/openapi.json", "/health"]) {
      remaining.push((await loam.get(path)).headers.get("ratelimit-remaining") ?? "not counted");
    }
    // /openapi.json spends the documents budget, /health the data budget (docs/decisions.md#rate-budgets): each counted apart, with or without the slash.
    expect(remaining).toEqual(["3", "3", "2", "2", "1", "1"]);
    expect((await loam.get("/health")).status).toBe(200);
    expect((await loam.get("/health")).status).toBe(429);
    await loam.stop();
  });

  test("a repeated parameter is a 422 also with an odd or missing Host", async () => {
    const loam = await startLoam({ now: () => minute });
    const port = Number(new URL(loam.base).port);
    const repeated = "/v1/soil/location?latitude=41.944131&latitude=1&longitude=-94.359608";
    for (const host of [...ODD_HOSTS, null]) {
      const answer = await rawGet(port, repeated, host, host === null ? "1.0" : "1.1");
      expect(answer.status).toBe(422);
      expect(JSON.parse(answer.body).error.message).toContain("'latitude' is repeated");
    }
    await loam.stop();
  });

  test("GET /v1 with an odd Host answers 200 with relative links, not a 500", async () => {
    const loam = await startLoam({ now: () => minute });
    const answer = await rawGet(Number(new URL(loam.base).port), "/v1", "a/b");
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.body);
    expect(body.openapi_url).toBe("/openapi.json");
    expect(body.documentation_url).toBe("/docs");
    await loam.stop();
  });
});
