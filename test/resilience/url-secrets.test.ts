/**
 * Issue 27, finding 4 (docs/decisions.md#url-secrets): credentials an operator puts in OSD_URL or
 * SDA_URL (`user:pass@`, `?token=`) were served to every client in `source.source_url` (JSON, and in
 * every CSV row) and SDA_URL's were printed in the start log. Loam runs as a child process with both
 * URLs carrying credentials, in front of the fake SDA and the fake OSD host on 127.0.0.1; every body
 * it serves and every line it logs is searched for them.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Subprocess } from "bun";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { startFakeOsd, type FakeOsd } from "../support/fake-osd";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { DATA_DIR, tempDbPath, testSnapshot } from "../support/server";
import { spawnLoam } from "../support/spawn";

const SECRETS = ["sda-user", "sda-pass", "sda-token-1234", "osd-user", "osd-pass", "osd-token-5678", "sig-9999"];

let fakeSda: FakeSda;
let fakeOsd: FakeOsd;
let proc: Subprocess<"ignore", "pipe", "pipe">;
let base: string;
let sdaUrl: string;
let osdPattern: string;

beforeAll(async () => {
  fakeSda = startFakeSda({ answerer: new SnapshotTransport(await testSnapshot()) });
  fakeOsd = startFakeOsd({ dataDir: DATA_DIR });
  sdaUrl = fakeSda.url.replace("http://", "http://sda-user:sda-pass@") + "?token=sda-token-1234";
  osdPattern = fakeOsd.urlPattern.replace("http://", "http://osd-user:osd-pass@") + "?token=osd-token-5678&sig=sig-9999";
  const spawned = spawnLoam({
    env: { LOAM_DB: tempDbPath(), LOAM_UPSTREAM: "sda", SDA_URL: sdaUrl, OSD_URL: osdPattern, LOG_LEVEL: "info", LOAM_DATA_DIR: DATA_DIR },
    stdout: "pipe",
    stderr: "pipe",
  });
  proc = spawned.proc as Subprocess<"ignore", "pipe", "pipe">;
  base = spawned.base;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error("loam did not start");
    await Bun.sleep(50);
  }
});
afterAll(() => {
  proc?.kill("SIGTERM");
  fakeSda?.close();
  fakeOsd?.close();
});

function expectNoSecret(text: string, where: string): void {
  for (const secret of SECRETS) if (text.includes(secret)) throw new Error(`${where} holds '${secret}'`);
}

test("no served URL, body or log line carries the credentials of SDA_URL or OSD_URL", async () => {
  const paths = [
    "/v1/series/Clarion",
    "/v1/series/Clarion?format=csv",
    "/v1/soil/location?latitude=41.944131&longitude=-94.359608",
    "/v1/soil/location?latitude=41.944131&longitude=-94.359608&format=csv",
    "/v1/soil/summary?latitude=41.944131&longitude=-94.359608&format=csv",
    "/v1/providers",
    "/metrics",
    "/health",
  ];
  for (const path of paths) {
    const response = await fetch(base + path);
    expect(response.status).toBe(200);
    expectNoSecret(await response.text(), path);
  }
  // The requests reached both fakes (with their credentials: the transports keep the full URL).
  expect(fakeSda.calls).toBeGreaterThan(0);
  expect(fakeOsd.calls).toBeGreaterThan(0);
  // The series' source_url is the file's URL, without userinfo or query string.
  const series = (await (await fetch(`${base}/v1/series/Clarion`)).json()) as { source: { source_url: string } };
  expect(series.source.source_url).toBe(fakeOsd.urlPattern.replace("{letter}", "C").replace("{name}", "CLARION"));
  // A failing upstream is logged too.
  fakeSda.setFault("http-500");
  await (await fetch(`${base}/v1/soil/location?latitude=41.9&longitude=-94.3`)).arrayBuffer();
  fakeSda.setFault(null);
  proc.kill("SIGTERM");
  await proc.exited;
  const stdout = await new Response(proc.stdout).text();
  const stderr = await new Response(proc.stderr).text();
  // Before: the start line printed SDA_URL with its user, password and token.
  expect(stdout).toContain("loam listening on");
  expect(stdout).toContain("upstream failure");
  expectNoSecret(stdout, "stdout");
  expectNoSecret(stderr, "stderr");
}, 60_000);

test("a malformed SDA_URL is refused at start without echoing its credentials", async () => {
  const { loadConfig } = await import("../../src/config");
  expect(() => loadConfig({ SDA_URL: "ftp://sda-user:sda-pass@host/x?token=sda-token-1234" })).toThrow(/SDA_URL/);
  try {
    loadConfig({ SDA_URL: "ftp://sda-user:sda-pass@host/x?token=sda-token-1234" });
  } catch (error) {
    expectNoSecret(String(error), "the configuration error");
  }
  const { providerSettings } = await import("../../src/providers/registry");
  const osdUrl = "ftp://osd-user:osd-pass@host/{name}?token=osd-token-5678";
  expect(() => loadConfig({ OSD_URL: osdUrl }, 2, providerSettings())).toThrow(/OSD_URL/);
  try {
    loadConfig({ OSD_URL: osdUrl }, 2, providerSettings());
  } catch (error) {
    expectNoSecret(String(error), "the configuration error");
  }
});
