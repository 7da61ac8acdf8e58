/**
 * SoilGrids' budget is fair and its refusals are not failures (docs/decisions.md#upstream-call-budget,
 * issue 43, finding 2 and two Low findings): one client spends at most its share of the minute's budget,
 * so the others still get theirs; refusals (Loam's budget, or ISRIC's own 429) never trip the circuit
 * breaker and are not counted as upstream errors in /metrics; a 429's Retry-After is honoured: no call
 * until then, a 503 with Retry-After meanwhile. A stand-in on 127.0.0.1 replays the real REST answer
 * (soilgrids/rest_api/SoilMates_sampleData.extracted.json); the app's clock is injected, so a minute
 * turns without sleeping. Clients are told apart by X-Forwarded-For (TRUST_PROXY=1).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { SdaTransport } from "../../src/upstream/sda/client";
import { BREAKER_FAILURES } from "../../src/upstream/breaker";
import { DATA_DIR, startLoam, type RunningLoam } from "../support/server";

const REAL = await Bun.file(join(DATA_DIR, "soilgrids/rest_api/SoilMates_sampleData.extracted.json")).text();

let reply: (request: Request) => Response = () => new Response(REAL, { headers: { "content-type": "application/json" } });
const asked: URL[] = [];
const standIn = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request) {
    asked.push(new URL(request.url));
    return reply(request);
  },
});

/** 30 s into a minute: a refusal's Retry-After is 30 until the clock moves. */
let clock = Date.UTC(2026, 0, 5, 12, 0, 30);
const PER_MINUTE = 4;
let loam: RunningLoam;

beforeAll(async () => {
  loam = await startLoam({
    source: new SdaTransport({ url: "http://127.0.0.1:9/never", timeoutMs: 1000 }),
    now: () => clock,
    env: { LOAM_UPSTREAM: "sda", TRUST_PROXY: "1", SOILGRIDS_URL: `http://127.0.0.1:${standIn.port}/soilgrids/v2.0/properties/query`, SOILGRIDS_REQUESTS_PER_MINUTE: String(PER_MINUTE) },
  });
}, 120_000);
afterAll(async () => {
  await loam?.stop();
  standIn.stop(true);
});

/** A new point each time (0.01 degree apart: another SoilGrids cell), asked by `client`. */
let point = 0;
function ask(client: string) {
  point += 1;
  return loam.json(`/v1/soil/modeled?latitude=${(10 + point / 100).toFixed(2)}&longitude=20&properties=clay&depth_bottom_cm=5`, { headers: { "x-forwarded-for": client } });
}

async function metric(name: string): Promise<number> {
  const text = await (await loam.get("/metrics")).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return Number(line?.split(" ")[1]);
}

function expectBudgetRefusal(answer: { status: number; headers: Headers; body: any }, retryAfter: string): void {
  expect([answer.status, answer.body.error?.code, answer.body.error?.retryable, answer.body.error?.provider]).toEqual([503, "upstream_budget_exhausted", true, "isric_soilgrids"]);
  expect(answer.headers.get("retry-after")).toBe(retryAfter);
}

describe("one client cannot spend the SoilGrids budget for everyone", () => {
  test("a client spends at most half the minute's budget; the rest stays for the others; every refusal is a 503 with Retry-After and no call", async () => {
    clock = Date.UTC(2026, 0, 5, 12, 0, 30);
    asked.length = 0;
    const greedy = "203.0.113.7";
    expect((await ask(greedy)).status).toBe(200);
    expect((await ask(greedy)).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const refused = await ask(greedy);
      expectBudgetRefusal(refused, "30");
      expect(refused.body.error.message).toContain("one client may spend at most 2");
    }
    expect(asked.length).toBe(2);
    // Another client still has the rest of the minute's budget.
    expect((await ask("198.51.100.20")).status).toBe(200);
    expect((await ask("198.51.100.21")).status).toBe(200);
    expect(asked.length).toBe(PER_MINUTE);
    // Now the minute's budget is spent for everyone.
    expectBudgetRefusal(await ask("198.51.100.22"), "30");
    expect(asked.length).toBe(PER_MINUTE);
  });

  test("budget refusals never trip the circuit breaker and are not upstream errors in /metrics", async () => {
    clock = Date.UTC(2026, 0, 5, 13, 0, 30);
    const errorsBefore = await metric('loam_upstream_calls_total{outcome="error"}');
    const refusedBefore = await metric("loam_upstream_budget_refusals_total");
    for (let i = 0; i < PER_MINUTE; i++) expect((await ask(`192.0.2.${i + 1}`)).status).toBe(200);
    // More refusals in a row than the breaker's threshold of failures.
    for (let i = 0; i < BREAKER_FAILURES + 2; i++) expectBudgetRefusal(await ask(`192.0.2.${50 + i}`), "30");
    expect(await metric('loam_upstream_calls_total{outcome="error"}')).toBe(errorsBefore);
    expect(await metric("loam_upstream_budget_refusals_total")).toBe(refusedBefore + BREAKER_FAILURES + 2);
    expect(await metric("loam_breaker_opened_total")).toBe(0);
    // The next minute, the very next point is asked upstream: no breaker stands in the way.
    clock += 60_000;
    const calls = asked.length;
    const next = await ask("192.0.2.99");
    expect([next.status, next.body.error?.code]).toEqual([200, undefined]);
    expect(asked.length).toBe(calls + 1);
  });
});

describe("ISRIC's own 429 is honoured", () => {
  test("a 429 with Retry-After: 120 is a 503 with Retry-After 120; no call until then, whoever asks; then calls resume; no breaker, no upstream error", async () => {
    clock = Date.UTC(2026, 0, 5, 14, 0, 0);
    const errorsBefore = await metric('loam_upstream_calls_total{outcome="error"}');
    reply = () => new Response('{"detail":"Too many requests"}', { status: 429, headers: { "retry-after": "120", "content-type": "application/json" } });
    asked.length = 0;
    const first = await ask("203.0.113.40");
    expectBudgetRefusal(first, "120");
    expect(first.body.error.message).toContain("429");
    expect(asked.length).toBe(1);
    // The operator reads ISRIC's refusal in the log, once.
    expect(loam.logs.filter((line) => line.request_id === first.headers.get("x-request-id")).map((line) => line.detail)).toEqual(["HTTP 429, Retry-After: 120"]);
    reply = () => new Response(REAL, { headers: { "content-type": "application/json" } });
    // 50 s later, other clients: still no call, and Retry-After counts down.
    clock += 50_000;
    for (let i = 0; i < BREAKER_FAILURES + 1; i++) expectBudgetRefusal(await ask(`203.0.113.${41 + i}`), "70");
    expect(asked.length).toBe(1);
    expect(await metric('loam_upstream_calls_total{outcome="error"}')).toBe(errorsBefore);
    expect(await metric("loam_breaker_opened_total")).toBe(0);
    // Past the 120 s ISRIC asked for (a new budget minute too): the next point is asked and answered.
    clock += 71_000;
    const after = await ask("203.0.113.60");
    expect([after.status, after.body.error?.code]).toEqual([200, undefined]);
    expect(asked.length).toBe(2);
  });

  test("a 429 with an HTTP-date Retry-After waits until that date; one without waits a minute", async () => {
    clock = Date.UTC(2026, 0, 5, 15, 0, 0);
    reply = () => new Response("slow down", { status: 429, headers: { "retry-after": new Date(clock + 45_000).toUTCString() } });
    expectBudgetRefusal(await ask("203.0.113.70"), "45");
    clock += 46_000;
    reply = () => new Response("slow down", { status: 429 });
    expectBudgetRefusal(await ask("203.0.113.71"), "60");
    reply = () => new Response(REAL, { headers: { "content-type": "application/json" } });
    clock += 61_000;
    expect((await ask("203.0.113.72")).status).toBe(200);
  });
});
