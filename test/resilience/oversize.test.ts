/**
 * Oversize input against a child-process Loam: a 100 KB URL, 10,000 query parameters, one parameter
 * repeated thousands of times. Each is refused quickly with a clear 4xx (414 or 422) and a valid
 * ErrorResponse, and the server's resident memory is the same after hundreds of them as before.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { contractFrom, type ContractChecker } from "../support/openapi";
import { startChild, type ChildLoam } from "./support";

const POINT = "/v1/soil/location?latitude=41.944131&longitude=-94.359608";
// Refusing an oversize request reads nothing and asks no upstream: milliseconds when idle. The bound is
// generous so the suite passes on a busy 2-core machine; a request that did real work (parse, upstream) takes far longer.
const REFUSE_WITHIN_MS = 2500;
const WARMUP_ROUNDS = 300;
const ROUNDS = 200;
const RSS_MARGIN_MB = 20;

interface Case {
  name: string;
  path: string;
  statuses: number[];
  code?: string;
}

const repeated = (name: string, value: string, times: number) => Array.from({ length: times }, () => `${name}=${value}`).join("&");

const CASES: Case[] = [
  { name: "a 100 KB URL", path: `${POINT}&pad=${"x".repeat(100 * 1024)}`, statuses: [414], code: "uri_too_long" },
  { name: "10,000 query parameters", path: `${POINT}&${Array.from({ length: 10_000 }, (_, i) => `p${i}=${i}`).join("&")}`, statuses: [414], code: "uri_too_long" },
  { name: "latitude repeated 10,000 times", path: `/v1/soil/location?${repeated("latitude", "41.9", 10_000)}&longitude=-94.3`, statuses: [414, 422] },
  { name: "latitude repeated 700 times (under the URI bound)", path: `/v1/soil/location?${repeated("latitude", "1", 700)}&longitude=1`, statuses: [422], code: "validation_error" },
  { name: "bbox of 4,000 items", path: `/v1/pedons?bbox=${Array.from({ length: 4000 }, () => "1").join(",")}`, statuses: [422], code: "validation_error" },
  { name: "properties of 2,000 items", path: `/v1/soil/location?latitude=1&longitude=1&properties=${Array.from({ length: 2000 }, () => "ph").join(",")}`, statuses: [422], code: "validation_error" },
  { name: "a 100 KB pedon key", path: `/v1/pedons/${"9".repeat(100 * 1024)}`, statuses: [414], code: "uri_too_long" },
];

describe("oversize input (child process)", () => {
  let loam: ChildLoam;
  let contract: ContractChecker;

  beforeAll(async () => {
    loam = await startChild();
    contract = await contractFrom(loam.base);
  });

  afterAll(async () => {
    await loam?.stop();
  });

  async function send(path: string): Promise<{ status: number; body: any; ms: number; requestId: string | null }> {
    const started = performance.now();
    const response = await fetch(loam.base + path, { signal: AbortSignal.timeout(5000) });
    const text = await response.text();
    const ms = performance.now() - started;
    let body: any = null;
    try {
      body = JSON.parse(text);
    } catch {
      // checked by the caller
    }
    return { status: response.status, body, ms, requestId: response.headers.get("x-request-id") };
  }

  for (const c of CASES) {
    test(`${c.name}: ${c.statuses.join(" or ")} quickly, with an ErrorResponse`, async () => {
      expect(c.path.length).toBeLessThan(262_144); // within Bun's header limit: Loam itself answers
      const answer = await send(c.path);
      expect(c.statuses).toContain(answer.status);
      expect(answer.ms).toBeLessThan(REFUSE_WITHIN_MS);
      contract.assert("ErrorResponse", answer.body);
      expect(answer.body.error.request_id).toBe(answer.requestId);
      if (c.code) expect(answer.body.error.code).toBe(c.code);
      else expect(["uri_too_long", "validation_error"]).toContain(answer.body.error.code);
    });
  }

  test("a URL beyond the server's header limit (300 KB) is refused with a 4xx and the server carries on", async () => {
    const answer = await send(`${POINT}&pad=${"x".repeat(300 * 1024)}`);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.ms).toBeLessThan(REFUSE_WITHIN_MS);
    expect((await send("/health")).status).toBe(200);
  });

  test(`resident memory is unchanged by ${ROUNDS} more rounds of every oversize request`, async () => {
    // RSS of a garbage-collected server saws up and down by tens of MB under this load, so single
    // readings are compared as samples: the median and the peak over some rounds after a warm-up, then
    // over as many rounds more. A leak of even 10 KB per request would add ~14 MB to both.
    const sample = async (rounds: number) => {
      const readings: number[] = [];
      for (let round = 1; round <= rounds; round++) {
        const answers = await Promise.all(CASES.map((c) => send(c.path)));
        for (const answer of answers) expect(answer.status === 414 || answer.status === 422).toBe(true);
        if (round % 5 === 0) readings.push(loam.memory().rssMb);
      }
      readings.sort((a, b) => a - b);
      return { median: readings[Math.floor(readings.length / 2)]!, max: readings.at(-1)! };
    };
    await sample(WARMUP_ROUNDS); // the heap grows to its working size over the first few hundred rounds, then stays
    const before = await sample(ROUNDS);
    const after = await sample(ROUNDS);
    expect((await send("/health")).status).toBe(200);
    expect(after.median - before.median).toBeLessThan(RSS_MARGIN_MB);
    expect(after.max - before.max).toBeLessThan(RSS_MARGIN_MB);
    console.error(
      `oversize: RSS median ${before.median.toFixed(1)} → ${after.median.toFixed(1)} MB, max ${before.max.toFixed(1)} → ${after.max.toFixed(1)} MB over ${2 * ROUNDS * CASES.length} requests`,
    );
  }, 30_000);
});
