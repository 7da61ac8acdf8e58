/**
 * docs/decisions.md#url-secrets for the providers of 0.5.0: SOILGRIDS_URL and SCAN_URL with user info, a
 * query and a fragment reach no body, header, log line or cache row, as the older providers' URLs do
 * not (test/resilience/url-masking.test.ts). The stand-ins on 127.0.0.1 answer the real SoilGrids REST
 * answer and an AWDB shaped as the format notes document.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { SdaTransport } from "../../src/upstream/sda/client";
import { DATA_DIR, startLoam, type RunningLoam } from "../support/server";
import { startFakeAwdb, type FakeAwdb } from "../site_series/fake-awdb";

const SECRETS = ["sg-user", "sg-pass", "sg-token-3131", "scan-user", "scan-pass", "scan-token-2929", "frag-5555"];
const REAL = await Bun.file(join(DATA_DIR, "soilgrids/rest_api/SoilMates_sampleData.extracted.json")).text();

let soilgrids: ReturnType<typeof Bun.serve>;
let awdb: FakeAwdb;
let loam: RunningLoam;

const withSecrets = (url: string, name: string, token: string) => url.replace("http://", `http://${name}-user:${name}-pass@`) + `?token=${token}#frag-5555`;

beforeAll(async () => {
  soilgrids = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(REAL, { headers: { "content-type": "application/json" } }) });
  awdb = startFakeAwdb();
  loam = await startLoam({
    source: new SdaTransport({ url: "http://127.0.0.1:9/never", timeoutMs: 1000 }),
    env: {
      LOAM_UPSTREAM: "sda",
      SOILGRIDS_URL: withSecrets(`http://127.0.0.1:${soilgrids.port}/soilgrids/v2.0/properties/query`, "sg", "sg-token-3131"),
      SOILGRIDS_REQUESTS_PER_MINUTE: "600",
      SCAN_URL: withSecrets(awdb.url, "scan", "scan-token-2929"),
      LOG_LEVEL: "debug",
    },
  });
}, 120_000);
afterAll(async () => {
  await loam?.stop();
  soilgrids?.stop(true);
  awdb?.close();
});

function expectNoSecret(text: string, where: string): void {
  for (const secret of SECRETS) if (text.includes(secret)) throw new Error(`${where} holds '${secret}'`);
}

describe("SOILGRIDS_URL and SCAN_URL carry credentials", () => {
  test("answers, headers, logs and the cache rows hold none of them; source_url is scheme, host and path", async () => {
    const paths = [
      "/v1/soil/modeled?latitude=32.443658&longitude=-83.428626&properties=clay,ph",
      "/v1/soil/modeled?latitude=32.443658&longitude=-83.428626&properties=clay,ph&format=csv",
      "/v1/providers/isric_soilgrids/raw/location?latitude=32.443658&longitude=-83.428626",
      "/v1/stations/2092:KS:SCAN",
      "/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&interval=daily&start=2010-07-01&end=2010-07-03",
      "/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&start=2010-07-01&end=2010-07-01&format=csv",
      "/health",
      "/metrics",
      "/v1",
    ];
    for (const path of paths) {
      const response = await loam.get(path);
      const body = await response.text();
      expect([path, response.status]).toEqual([path, 200]);
      expectNoSecret(body, path);
      expectNoSecret(JSON.stringify([...response.headers]), `${path} headers`);
    }
    expect(awdb.calls).toBeGreaterThan(0);
    const modeled = await loam.json("/v1/soil/modeled?latitude=32.443658&longitude=-83.428626&properties=clay");
    expect(modeled.body.observations[0].source.source_url).toBe(`http://127.0.0.1:${soilgrids.port}/soilgrids/v2.0/properties/query`);
    const rows = loam.db.$client.query<{ key: string; provider: string; payload: string }, []>("SELECT key, provider, payload FROM cache_entries").all();
    expect(new Set(rows.map((r) => r.provider))).toEqual(new Set(["isric_soilgrids", "usda_scan"]));
    for (const row of rows) {
      expectNoSecret(row.key, "a cache key");
      expectNoSecret(row.payload, `the cache payload of ${row.key}`);
    }
    expectNoSecret(JSON.stringify(loam.logs), "the operator log");
    expectNoSecret(JSON.stringify(loam.accessLog), "the access log");
  }, 120_000);
});
