/**
 * Issue 27, finding 9 (docs/decisions.md#metrics): /metrics was public, not rate limited, and cost 4x
 * the CPU of /health per request. Now METRICS_TOKEN (optional) guards it, it is counted against the
 * rate limit like the API, and a flood of scrapes renders the text at most once a second.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { startLoam, type RunningLoam } from "../support/server";

const TOKEN = "scrape-0123456789abcdef";
let loam: RunningLoam | undefined;
afterEach(async () => {
  await loam?.stop();
  loam = undefined;
});

describe("GET /metrics with METRICS_TOKEN", () => {
  test("without the token, or with another, is a 401 ErrorResponse; with it, the metrics", async () => {
    loam = await startLoam({ env: { METRICS_TOKEN: TOKEN } });
    for (const headers of [{}, { authorization: "Bearer wrong-0123456789abcdef" }, { authorization: `Basic ${btoa(`x:${TOKEN}`)}` }, { authorization: `Bearer ${TOKEN}x` }] as Record<string, string>[]) {
      const { status, headers: got, body } = await loam.json("/metrics", { headers });
      // Before: 200 with every counter, whoever asked.
      expect(status).toBe(401);
      expect(got.get("www-authenticate")).toContain("Bearer");
      expect(body.error.code).toBe("unauthorized");
      expect(body.error.message).toContain("METRICS_TOKEN");
      expect(JSON.stringify(body)).not.toContain(TOKEN);
    }
    const ok = await loam.get("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    const text = await ok.text();
    expect(text).toContain("loam_requests_total");
    // The refused scrapes are counted.
    expect(text).toMatch(/loam_requests_total\{route="\/metrics",status="401"\} 4/);
  });

  test("unset: open, as before", async () => {
    loam = await startLoam();
    expect((await loam.get("/metrics")).status).toBe(200);
  });

  test("a token that is too short is refused at start, without echoing it", async () => {
    const { loadConfig } = await import("../../src/config");
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).not.toThrow(/short/);
  });
});

describe("GET /metrics is counted and cheap", () => {
  test("it spends the client's rate budget (429 past it)", async () => {
    loam = await startLoam({ env: { RATE_LIMIT_PER_MINUTE: "5" } });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await loam.get("/metrics");
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    // Before: 200 seven times, RateLimit headers absent.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });

  test("a flood of scrapes renders once a second; any other request shows at the next scrape", async () => {
    loam = await startLoam();
    await (await loam.get("/health")).arrayBuffer();
    const first = await (await loam.get("/metrics")).text();
    const second = await (await loam.get("/metrics")).text();
    // The second scrape within the second is the first's rendering (its own count not yet in it).
    expect(second).toBe(first);
    await (await loam.get("/health")).arrayBuffer();
    const third = await (await loam.get("/metrics")).text();
    expect(third).not.toBe(first);
    expect(third).toMatch(/loam_requests_total\{route="\/health",status="200"\} 2/);
  });
});
