/**
 * Finding 6 of the hardening pass: access-log lines of requests that finish while Loam stops on
 * SIGTERM were lost (0 of 10 written). Ten requests are held in flight by a slow SDA stand-in, Loam
 * gets SIGTERM, the requests finish with full answers, and all ten lines must be in its stdout.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { tempDbPath, testSnapshot } from "../support/server";
import { startLoggedChild } from "./child-output";
import { distinctPoints } from "./support";

const IN_FLIGHT = 10;
const DELAY_MS = 1500;

let sda: FakeSda;
let answerer: SnapshotTransport;
let slow: ReturnType<typeof Bun.serve>;
let arrived = 0;

beforeAll(async () => {
  answerer = new SnapshotTransport(await testSnapshot());
  sda = startFakeSda({ answerer });
  // Holds each SDA call DELAY_MS, then forwards it to the fake SDA.
  slow = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const body = await request.text();
      arrived++;
      await Bun.sleep(DELAY_MS);
      const answer = await fetch(sda.url, { method: "POST", headers: { "content-type": "application/json" }, body });
      return new Response(await answer.arrayBuffer(), { status: answer.status, headers: { "content-type": answer.headers.get("content-type") ?? "" } });
    },
  });
});
afterAll(() => {
  slow.stop(true);
  sda.close();
  answerer.close();
});

test("SIGTERM with 10 requests in flight: all 10 answered 200 and all 10 access-log lines written", async () => {
  const loam = await startLoggedChild({
    LOAM_DB: tempDbPath(),
    LOAM_UPSTREAM: "sda",
    SDA_URL: `http://127.0.0.1:${slow.port}/Tabular/post.rest`,
    UPSTREAM_TIMEOUT_MS: "10000",
    LOG_LEVEL: "info",
  });
  const requests = distinctPoints(IN_FLIGHT).map(async (point, i) => {
    const response = await fetch(`${loam.base}/v1/soil/location?latitude=${point.latitude}&longitude=${point.longitude}&properties=ph`, {
      headers: { "X-Request-Id": `in-flight-${i}` },
    });
    await response.arrayBuffer();
    return response.status;
  });
  const deadline = Date.now() + 10_000;
  while (arrived < IN_FLIGHT && Date.now() < deadline) await Bun.sleep(20);
  expect(arrived).toBe(IN_FLIGHT);
  loam.proc.kill("SIGTERM");
  expect(await Promise.all(requests)).toEqual(Array(IN_FLIGHT).fill(200));
  expect(await loam.stop()).toBe(0);

  const written = loam.lines().filter((line) => line.msg === "request" && String(line.request_id).startsWith("in-flight-"));
  expect(written.map((line) => line.request_id).sort()).toEqual(Array.from({ length: IN_FLIGHT }, (_, i) => `in-flight-${i}`).sort());
  expect(written.every((line) => line.status === 200 && line.route === "/v1/soil/location")).toBe(true);
  // The process says it stopped, after the lines of its last requests.
  const stopped = loam.lines().findIndex((line) => line.msg === "stopped cleanly");
  expect(stopped).toBeGreaterThan(loam.lines().findLastIndex((line) => line.msg === "request"));
}, 30_000);
