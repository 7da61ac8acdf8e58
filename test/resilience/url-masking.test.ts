/**
 * Issue 37, item 2 (docs/decisions.md#url-secrets): the user info and query an operator puts in any
 * configured upstream URL (GEOCHEM_URL, SDA_URL, OSD_URL) reach no client, log, metric or cache: the
 * DS 801 file's URL was served whole in `source.source_url` and written into the cache keys. Loam runs
 * in live mode in front of stand-ins on 127.0.0.1 whose URLs carry `user:pass@` and `?token=`; every
 * body (JSON and CSV), header, log line, SQLite cache row and Redis key and value is searched.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RedisClient } from "bun";
import { SdaTransport } from "../../src/upstream/sda/client";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { publicUrl } from "../../src/upstream/public-url";
import { startFakeOsd, type FakeOsd } from "../support/fake-osd";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { startFakeUsgs, type FakeUsgs } from "../support/fake-usgs";
import { DATA_DIR, startLoam, testSnapshot, type RunningLoam } from "../support/server";
import { redisUp, startRedis, type RunningRedis } from "../redis/support";

const SECRETS = ["geo-user", "geo-pass", "geo-token-4242", "sda-user", "sda-pass", "sda-token-1234", "osd-user", "osd-pass", "osd-token-5678", "frag-7777"];

let fakeSda: FakeSda;
let fakeOsd: FakeOsd;
let fakeUsgs: FakeUsgs;
let redis: RunningRedis;
let sdaUrl: string;
let env: Record<string, string>;

/** `http://host/...` with user info, a query and a fragment added. */
const withSecrets = (url: string, name: string, token: string) => url.replace("http://", `http://${name}-user:${name}-pass@`) + `${url.includes("?") ? "&" : "?"}token=${token}#frag-7777`;

beforeAll(async () => {
  fakeSda = startFakeSda({ answerer: new SnapshotTransport(await testSnapshot()) });
  fakeOsd = startFakeOsd({ dataDir: DATA_DIR });
  fakeUsgs = startFakeUsgs({ dataDir: DATA_DIR });
  redis = await startRedis();
  sdaUrl = withSecrets(fakeSda.url, "sda", "sda-token-1234");
  env = {
    LOAM_UPSTREAM: "sda",
    SDA_URL: sdaUrl,
    OSD_URL: withSecrets(fakeOsd.urlPattern, "osd", "osd-token-5678"),
    GEOCHEM_URL: withSecrets(fakeUsgs.url, "geo", "geo-token-4242"),
    LOG_LEVEL: "debug",
    LOAM_DATA_DIR: DATA_DIR,
    UPSTREAM_TIMEOUT_MS: "10000",
  };
}, 120_000);
afterAll(async () => {
  fakeSda?.close();
  fakeOsd?.close();
  fakeUsgs?.close();
  await redis?.stop();
});

function expectNoSecret(text: string, where: string): void {
  for (const secret of SECRETS) if (text.includes(secret)) throw new Error(`${where} holds '${secret}': ${text.slice(Math.max(0, text.indexOf(secret) - 120), text.indexOf(secret) + 40)}`);
}

const PATHS = [
  "/v1/geochem/sites/3560?properties=arsenic",
  "/v1/geochem/sites/3560?properties=arsenic&format=csv",
  "/v1/geochem/sites?bbox=-96.7,40.3,-90.1,43.6&property=lead",
  "/v1/geochem/sites?bbox=-96.7,40.3,-90.1,43.6&property=lead&format=csv",
  "/v1/geochem/sites?near=42,-93&limit=3",
  "/ogc/collections/geochem_sites/items?bbox=-96.7,40.3,-90.1,43.6&limit=5",
  "/v1/series/Clarion",
  "/v1/series/Clarion?format=csv",
  "/v1/soil/location?latitude=41.944131&longitude=-94.359608",
  "/v1/soil/location?latitude=41.944131&longitude=-94.359608&format=csv",
  "/v1/providers",
  "/v1",
  "/health",
  "/metrics",
];

/** Every path answered 200, its headers and body searched; then a failing upstream of each kind, searched too. */
async function requestEverything(loam: RunningLoam): Promise<void> {
  for (const path of PATHS) {
    const response = await loam.get(path);
    const body = await response.text();
    expect([path, response.status]).toEqual([path, 200]);
    expectNoSecret(body, path);
    expectNoSecret(JSON.stringify([...response.headers]), `${path} headers`);
  }
  // Failures are logged with their detail and answered with a message naming the host.
  fakeSda.setFault("http-500");
  fakeUsgs.setFault("http-500");
  for (const path of ["/v1/soil/location?latitude=41.9&longitude=-94.3", "/v1/series/Nosuchseries"]) {
    const response = await loam.get(path);
    expectNoSecret(await response.text(), path);
  }
  fakeSda.setFault(null);
  fakeUsgs.setFault(null);
}

function expectCleanLogs(loam: RunningLoam): void {
  expect(loam.logs.length + loam.accessLog.length).toBeGreaterThan(0);
  expectNoSecret(JSON.stringify(loam.logs), "the operator log");
  expectNoSecret(JSON.stringify(loam.accessLog), "the access log");
}

describe("configured upstream URLs carry credentials", () => {
  test("geochemistry, series and SDA answers, /health, /metrics, logs and the SQLite cache rows hold none of them", async () => {
    const loam = await startLoam({ source: new SdaTransport({ url: sdaUrl, timeoutMs: 10_000 }), env });
    try {
      await requestEverything(loam);
      // The requests reached all three stand-ins (the transports keep the whole URL to send them).
      expect([fakeSda.calls > 0, fakeOsd.calls > 0, fakeUsgs.calls > 0]).toEqual([true, true, true]);
      // source_url is the file's address: scheme, host and path.
      const site = await loam.json("/v1/geochem/sites/3560?properties=arsenic");
      expect(site.body.source.source_url).toBe(fakeUsgs.url);
      const rows = loam.db.$client.query<{ key: string; provider: string; payload: string }, []>("SELECT key, provider, payload FROM cache_entries").all();
      expect(rows.some((row) => row.provider === "usgs_geochem")).toBe(true);
      for (const row of rows) {
        expectNoSecret(row.key, "a cache key");
        expectNoSecret(row.payload, `the cache payload of ${row.key}`);
      }
      expectCleanLogs(loam);
    } finally {
      await loam.stop();
    }
  }, 120_000);

  test("with REDIS_URL, no Redis key or value holds them", async () => {
    const loam = await startLoam({ source: new SdaTransport({ url: sdaUrl, timeoutMs: 10_000 }), env: { ...env, REDIS_URL: redis.url, REDIS_TIMEOUT_MS: "2000" } });
    const client = new RedisClient(redis.url);
    try {
      await redisUp(loam);
      await requestEverything(loam);
      const keys = (await client.send("KEYS", ["*"])) as string[];
      expect(keys.filter((key) => key.startsWith("loam:cache:")).length).toBeGreaterThan(2);
      for (const key of keys) {
        expectNoSecret(key, "a Redis key");
        const type = await client.send("TYPE", [key]);
        const value = type === "string" ? await client.send("GET", [key]) : await client.send("DUMP", [key]);
        expectNoSecret(String(value), `the Redis value of ${key}`);
      }
      expectCleanLogs(loam);
    } finally {
      client.close();
      await loam.stop();
    }
  }, 120_000);
});

describe("publicUrl, the one masking function of every configured upstream URL", () => {
  const cases: [string, string][] = [
    ["http://user:pass@127.0.0.1:8080/file.txt?token=secret#frag", "http://127.0.0.1:8080/file.txt"],
    ["https://host.example/Tabular/post.rest", "https://host.example/Tabular/post.rest"],
    ["https://u:p@raw.example/x/{letter}/{name}.json?sig=1", "https://raw.example/x/{letter}/{name}.json"],
    // A password holding '?', '#' or '@' (unencoded) must not leave any of it behind.
    ["http://user:pa?ss@host.example/file", "http://host.example/file"],
    ["http://user:pa#ss@host.example/file", "http://host.example/file"],
    ["http://user:p@ss@host.example/file", "http://host.example/file"],
    // No path: an '@' in the query is not user info.
    ["http://host.example?x=a@b", "http://host.example"],
    ["HTTPS://User:Pw@Host.Example:8443/a/b/?q=1", "https://host.example:8443/a/b/"],
  ];
  for (const [given, shown] of cases) {
    test(`${JSON.stringify(given)} is shown as ${JSON.stringify(shown)}`, () => {
      expect(publicUrl(given)).toBe(shown);
    });
  }
});
