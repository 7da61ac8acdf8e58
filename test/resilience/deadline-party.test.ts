/**
 * Issue 27, finding 7 (docs/decisions.md#deadlines): when Loam's own event loop is held up past an
 * upstream deadline, the 504 said Soil Data Access "did not send a complete answer" although SDA had
 * answered in time. Here a stand-in for SDA on 127.0.0.1 answers after 300 ms (SDA's empty result, the
 * captured `{}`), while Loam (in this process) is held up for 3 s by CPU work: the deadline of 1.5 s
 * passes with SDA's answer waiting unread. Now that is a 503 naming Loam; an upstream that truly stays
 * silent is still a 504 naming SDA.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readCapture } from "../support/fake-sda";
import { startUncachedSdaLoam } from "../support/sda-mode";
import type { RunningLoam } from "../support/server";

let received = 0;
let silent = false;
const upstream = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  idleTimeout: 255,
  async fetch(request) {
    await request.text();
    received += 1;
    if (silent) return new Promise<Response>(() => {});
    await Bun.sleep(300);
    return new Response(readCapture("empty.json"), { headers: { "content-type": "application/json; charset=utf-8" } });
  },
});
let loam: RunningLoam;
beforeAll(async () => {
  loam = await startUncachedSdaLoam(`http://127.0.0.1:${upstream.port}/Tabular/post.rest`, 1500);
});
afterAll(async () => {
  await loam.stop();
  upstream.stop(true);
});

const POINT = "/v1/soil/location?latitude=41.944131&longitude=-94.359608";

test("a deadline missed while Loam itself was busy names Loam (503), not SDA", async () => {
  // Without a stall the stand-in's answer arrives in time.
  expect((await loam.json(POINT)).status).toBe(200);
  const before = received;
  const pending = loam.json(POINT);
  while (received === before) await Bun.sleep(1);
  // The query is at the stand-in, which answers in 300 ms; Loam's event loop is held for 3 s.
  const until = performance.now() + 3000;
  while (performance.now() < until) {
    // CPU work in Loam's process (this test runs Loam in-process).
  }
  const { status, body } = await pending;
  // Before: 504 upstream_timeout "Soil Data Access did not send a complete answer within 1500 ms."
  expect(status).toBe(503);
  expect(body.error.code).toBe("internal_error");
  expect(body.error.retryable).toBe(true);
  expect(body.error.message).toContain("Loam was too busy");
  expect(body.error.message).toContain("Soil Data Access is not known to be at fault");
}, 30_000);

test("an upstream that stays silent is still a 504 naming Soil Data Access", async () => {
  silent = true;
  try {
    const { status, body } = await loam.json(POINT.replace("41.944131", "41.944132"));
    expect(status).toBe(504);
    expect(body.error.code).toBe("upstream_timeout");
    expect(body.error.message).toContain("Soil Data Access did not send a complete answer within 1500 ms");
  } finally {
    silent = false;
  }
}, 30_000);
