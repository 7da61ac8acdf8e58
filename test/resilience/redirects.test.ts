/**
 * Issue 37, item 6 (docs/decisions.md#redirects): an upstream's redirect was followed to any host (a
 * 302 from the DS 801 file's host to 169.254.169.254 was followed and its status reflected). Redirects
 * are followed only within the configured URL's origin (scheme, host and port), at most 3; a redirect
 * elsewhere, or a fourth, is a 502 naming the configured host, never the redirect target or its
 * secrets. The rule is the shared HTTP reader's, so every provider's HTTP source has it: the DS 801
 * file, the OSD files and Soil Data Access. Two ports on 127.0.0.1 are two origins.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { SdaTransport } from "../../src/upstream/sda/client";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { startFakeOsd, type FakeOsd } from "../support/fake-osd";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { GEOCHEM_PATH, startFakeUsgs, type FakeUsgs } from "../support/fake-usgs";
import { startRedirector, type Redirector } from "../support/redirector";
import { DATA_DIR, startLoam, testSnapshot, type RunningLoam } from "../support/server";

let usgs: FakeUsgs;
let osd: FakeOsd;
let sda: FakeSda;
let geoHost: Redirector;
let osdHost: Redirector;
let sdaHost: Redirector;
const started: RunningLoam[] = [];

/** A redirect target with user info and a token: neither may reach a message. */
const secretTarget = (url: string) => url.replace("http://", "http://target-user:target-pass@") + "?token=target-token-31";
const TARGET_SECRETS = ["target-user", "target-pass", "target-token-31"];

beforeAll(async () => {
  usgs = startFakeUsgs({ dataDir: DATA_DIR });
  osd = startFakeOsd({ dataDir: DATA_DIR });
  sda = startFakeSda({ answerer: new SnapshotTransport(await testSnapshot()) });
  const usgsOrigin = new URL(usgs.url).origin;
  geoHost = startRedirector(usgsOrigin, (path) => {
    if (path === "/elsewhere") return [302, secretTarget(usgs.url)];
    // Three redirects within the origin, of three kinds, then the file (passed through from the stand-in).
    const three: Record<string, [number, string]> = { "/hop1": [302, "/hop2"], "/hop2": [301, "hop3"], "/hop3": [307, GEOCHEM_PATH] };
    const four: Record<string, [number, string]> = { "/four1": [302, "/four2"], "/four2": [302, "/four3"], "/four3": [302, "/four4"], "/four4": [302, GEOCHEM_PATH] };
    return three[path] ?? four[path] ?? null;
  });
  const osdOrigin = new URL(osd.urlPattern).origin;
  const osdPrefix = osd.urlPattern.slice(osdOrigin.length).replace("{letter}/{name}.json", "");
  osdHost = startRedirector(osdOrigin, (path) => {
    if (path.startsWith("/away/")) return [302, secretTarget(osdOrigin + osdPrefix + path.slice("/away/".length))];
    if (path.startsWith("/moved/")) return [301, osdPrefix + path.slice("/moved/".length)];
    return null;
  });
  const sdaOrigin = new URL(sda.url).origin;
  sdaHost = startRedirector(sdaOrigin, (path) => {
    if (path === "/away") return [307, secretTarget(sda.url)];
    if (path === "/moved") return [308, new URL(sda.url).pathname];
    return null;
  });
}, 120_000);
afterEach(async () => {
  await Promise.all(started.splice(0).map((loam) => loam.stop()));
});
afterAll(() => {
  for (const server of [usgs, osd, sda, geoHost, osdHost, sdaHost]) server?.close();
});

async function liveLoam(env: Record<string, string>, sdaUrl = "http://127.0.0.1:9/Tabular/post.rest"): Promise<RunningLoam> {
  const loam = await startLoam({
    source: new SdaTransport({ url: sdaUrl, timeoutMs: 10_000 }),
    env: { LOAM_UPSTREAM: "sda", UPSTREAM_TIMEOUT_MS: "10000", LOAM_DATA_DIR: DATA_DIR, ...env },
  });
  started.push(loam);
  return loam;
}

/** A 502 upstream_error naming `provider` and the configured host, and nothing of the redirect target. */
function expectRefused(answer: { status: number; body: any }, provider: string, configuredHost: string, targetPort: string, why: RegExp): void {
  expect([answer.status, answer.body.error?.code, answer.body.error?.provider, answer.body.error?.retryable]).toEqual([502, "upstream_error", provider, true]);
  const message: string = answer.body.error.message;
  expect(message).toContain(configuredHost);
  expect(message).toMatch(why);
  expect(message).not.toContain(`:${targetPort}`);
  for (const secret of TARGET_SECRETS) expect(message).not.toContain(secret);
}

describe("the DS 801 file (GEOCHEM_URL)", () => {
  test("a redirect to another origin is not followed: 502 naming the configured host, the other host never asked", async () => {
    const loam = await liveLoam({ GEOCHEM_URL: `${geoHost.origin}/elsewhere` });
    const calls = usgs.calls;
    const answer = await loam.json("/v1/geochem/sites/3560");
    expectRefused(answer, "usgs_geochem", new URL(geoHost.origin).host, new URL(usgs.url).port, /redirect/i);
    expect(usgs.calls).toBe(calls);
  });

  test("three redirects within the origin are followed: the file is served", async () => {
    const loam = await liveLoam({ GEOCHEM_URL: `${geoHost.origin}/hop1` });
    const { status, body } = await loam.json("/v1/geochem/sites/3560?properties=arsenic");
    expect(status).toBe(200);
    expect(body.observations[0]).toMatchObject({ value: 4.7, reported_value: "4.7" });
    expect(body.source.source_url).toBe(`${geoHost.origin}/hop1`);
  });

  test("a fourth redirect is refused: 502 saying how many are followed", async () => {
    const loam = await liveLoam({ GEOCHEM_URL: `${geoHost.origin}/four1` });
    const answer = await loam.json("/v1/geochem/sites/3560");
    expectRefused(answer, "usgs_geochem", new URL(geoHost.origin).host, new URL(usgs.url).port, /more than 3 redirects/);
  });
});

describe("the OSD files (OSD_URL)", () => {
  test("a redirect to another origin is not followed: 502 naming the configured host", async () => {
    const loam = await liveLoam({ OSD_URL: `${osdHost.origin}/away/{letter}/{name}.json` });
    const calls = osd.calls;
    const answer = await loam.json("/v1/series/Clarion");
    expectRefused(answer, "usda_osd", new URL(osdHost.origin).host, new URL(osd.urlPattern).port, /redirect/i);
    expect(osd.calls).toBe(calls);
  });

  test("a redirect within the origin is followed: the series is served", async () => {
    const loam = await liveLoam({ OSD_URL: `${osdHost.origin}/moved/{letter}/{name}.json` });
    const { status, body } = await loam.json("/v1/series/Clarion");
    expect(status).toBe(200);
    expect(body.series.name.toUpperCase()).toBe("CLARION");
  });
});

describe("Soil Data Access (SDA_URL)", () => {
  const point = "/v1/soil/location?latitude=41.944131&longitude=-94.359608";

  test("a 307 to another origin is not followed: 502 naming SDA's configured host", async () => {
    const loam = await liveLoam({}, `${sdaHost.origin}/away`);
    const calls = sda.calls;
    const answer = await loam.json(point);
    expectRefused(answer, "usda_ssurgo", new URL(sdaHost.origin).host, new URL(sda.url).port, /redirect/i);
    expect(sda.calls).toBe(calls);
  });

  test("a 308 within the origin is followed with the query: the point is answered", async () => {
    const loam = await liveLoam({}, `${sdaHost.origin}/moved`);
    const calls = sda.calls;
    const { status, body } = await loam.json(point);
    expect(status).toBe(200);
    expect(body.observations.length).toBeGreaterThan(0);
    expect(sda.calls).toBeGreaterThan(calls);
  });
});
