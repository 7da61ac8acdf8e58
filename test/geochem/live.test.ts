/**
 * Live mode of usgs_geochem (LOAM_UPSTREAM=sda, GEOCHEM_URL) against a local server sending the real
 * DS 801 file or a damaged copy (docs/decisions.md#geochem-live): downloaded once and kept 30 days; a
 * file that fails its check (header, unit row, row count) is a 502 naming the check, nothing of it is
 * kept, and once a good copy exists it keeps serving when a newer download is refused.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { SdaTransport } from "../../src/upstream/sda/client";
import { downloadGeochem } from "../../src/providers/usgs_geochem/transport";
import { DATA_DIR, startLoam, testSnapshot, type RunningLoam } from "../support/server";
import { startFakeUsgs, type FakeUsgs, type UsgsFault } from "../support/fake-usgs";
import { reference } from "./reference";

let fake: FakeUsgs;
const started: RunningLoam[] = [];
const DAY = 24 * 3600 * 1000;

beforeAll(async () => {
  fake = startFakeUsgs({ dataDir: DATA_DIR });
  // The snapshot build (the USDA providers' source) is made here, not inside the first test's time.
  await testSnapshot();
}, 120_000);
afterEach(async () => {
  fake.setFault(null);
  await Promise.all(started.splice(0).map((loam) => loam.stop()));
});
afterAll(() => fake?.close());

/** A live-mode Loam of its own (a fresh transport: nothing downloaded yet). */
async function liveLoam(now?: () => number): Promise<RunningLoam> {
  const loam = await startLoam({
    // SDA is not reachable (port 9): only the geochemistry routes are asked.
    source: new SdaTransport({ url: "http://127.0.0.1:9/Tabular/post.rest", timeoutMs: 500 }),
    env: { LOAM_UPSTREAM: "sda", GEOCHEM_URL: fake.url, UPSTREAM_TIMEOUT_MS: "5000" },
    now,
  });
  started.push(loam);
  return loam;
}

describe("live mode", () => {
  test("serves the file's answers with the download's provenance, downloading it once for many requests", async () => {
    const loam = await liveLoam();
    const before = fake.calls;
    const answers = await Promise.all([3560, 7256, 3560, 96, 208].map((id) => loam.json(`/v1/geochem/sites/${id}?properties=arsenic`)));
    for (const { status } of answers) expect(status).toBe(200);
    const { body } = answers[0]!;
    expect(body.observations[0]).toMatchObject({ value: 4.7, reported_value: "4.7" });
    expect(body.source.source_url).toBe(fake.url);
    expect(body.warnings.join(" ")).not.toContain("offline snapshot");
    await loam.json(`/v1/geochem/sites?limit=1000&property=lead`);
    await loam.json(`/v1/geochem/sites?near=42,-93&limit=3`);
    expect(fake.calls - before).toBe(1);
  });

  const damaged: [UsgsFault, string][] = [
    ["truncated", "row count"],
    ["reheaded", "header"],
    ["unit-row", "unit row"],
  ];
  for (const [fault, check] of damaged) {
    test(`a ${fault} file is refused: 502 naming the ${check} check, and nothing of it is kept`, async () => {
      const loam = await liveLoam();
      fake.setFault(fault);
      const { status, body } = await loam.json("/v1/geochem/sites/3560");
      expect(status).toBe(502);
      expect(body.error).toMatchObject({ code: "upstream_error", provider: "usgs_geochem", retryable: true });
      expect(body.error.message).toContain(`${check} check failed`);
      const list = await loam.json("/v1/geochem/sites?bbox=-96.7,40.3,-90.1,43.6");
      expect([list.status, list.body.error.message.includes(check)]).toEqual([502, true]);
      // The good file, once sent, is read: the refusal was not kept.
      fake.setFault(null);
      const good = await loam.json("/v1/geochem/sites/3560");
      expect(good.status).toBe(200);
      expect(good.body.site.site_id).toBe(3560);
    });
  }

  test("an HTTP error of the file's host is a 502 naming the answer", async () => {
    const loam = await liveLoam();
    fake.setFault("http-500");
    const { status, body } = await loam.json("/v1/geochem/sites/3560");
    expect([status, body.error.code]).toEqual([502, "upstream_error"]);
    expect(body.error.message).toContain("HTTP 500");
  });

  test("kept 30 days; then a refused download leaves the last good copy serving, saying why", async () => {
    let clock = Date.parse("2026-11-01T00:00:00Z");
    const loam = await liveLoam(() => clock);
    const calls = fake.calls;
    expect((await loam.json("/v1/geochem/sites/3560?properties=lead")).status).toBe(200);
    clock += 29 * DAY;
    expect((await loam.json("/v1/geochem/sites/7256?properties=lead")).status).toBe(200);
    expect(fake.calls - calls).toBe(1);

    // Past 30 days the file is downloaded again; this time it comes truncated.
    clock += 2 * DAY;
    fake.setFault("truncated");
    const { status, body } = await loam.json("/v1/geochem/sites/96?properties=lead");
    expect(status).toBe(200);
    expect(body.observations[0].reported_value).toBe(reference().sites.get(96)!.Top5_Pb);
    expect(body.warnings.some((w: string) => w.includes("refused") && w.includes("row count"))).toBe(true);
    expect(fake.calls - calls).toBe(2);
    // The refused download is not tried again on every request.
    expect((await loam.json("/v1/geochem/sites/208?properties=lead")).status).toBe(200);
    expect(fake.calls - calls).toBe(2);
  });
});

describe("the download's failures", () => {
  test("a host that never answers is the shared deadline's 504 upstream_timeout, naming the file and its host", async () => {
    // A server that accepts the request and never answers: only the deadline ends the exchange.
    const silent = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Promise<Response>(() => {}) });
    try {
      const url = `http://127.0.0.1:${silent.port}/ds801/Appendix_2b.txt`;
      const error = await downloadGeochem({ url, timeoutMs: 300 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ status: 504, code: "upstream_timeout", provider: "usgs_geochem" });
      expect((error as Error).message).toBe(`The USGS DS 801 geochemistry file (127.0.0.1:${silent.port}) did not send a complete answer within 300 ms.`);
    } finally {
      silent.stop(true);
    }
  });
});
