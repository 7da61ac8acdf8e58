/**
 * Issue 27, findings 6 and 8 (docs/decisions.md#upstream-budget, #upstream-keys): one
 * `/v1/soil/mapunits?bbox=…&limit=5000&property=clay` request made 251 SDA queries (one per map unit
 * to summarize), none of them counted against the client's rate budget; and a map-unit key from the
 * upstream that is not a key was a 422 blaming the client. The fake SDA on 127.0.0.1 answers the
 * polygon query with the box's real polygons listed under many map-unit keys (each a real IA073 key
 * plus an offset: unknown to the snapshot, so each costs one map-unit query, as distinct map units of
 * a large box would), and every other query from the test snapshot.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { MAX_UPSTREAM_CALLS_PER_REQUEST } from "../../src/providers/connect";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import type { Transport } from "../../src/upstream/transport";
import { rewritingRows } from "../support/rewritten-answers";
import { SdaTransport } from "../../src/upstream/sda/client";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { startLoam, testSnapshot, type RunningLoam } from "../support/server";

const BBOX = "-94.48,41.83,-94.23,42.08";

/** The snapshot, except that the polygon query lists its real rows under `keys` map-unit keys (or the given ones). */
function manyMapUnits(snapshot: SnapshotTransport, keys: number | string[]): Transport {
  return rewritingRows(snapshot, "ssurgo_polygons", (rows) => {
    const list = typeof keys === "number" ? Array.from({ length: keys }, (_, i) => String(Number(rows[i % rows.length]![3]) + 1_000_000 + i)) : keys;
    return list.map((mukey, i) => {
      const row = rows[i % rows.length]!;
      return [String(500_000_000 + i), row[1]!, row[2]!, mukey, row[4]!, row[5]!];
    });
  });
}

let fake: FakeSda | undefined;
let loam: RunningLoam | undefined;
afterEach(async () => {
  await loam?.stop();
  fake?.close();
});

async function start(keys: number | string[], env: Record<string, string> = {}): Promise<{ fake: FakeSda; loam: RunningLoam }> {
  fake = startFakeSda({ answerer: manyMapUnits(new SnapshotTransport(await testSnapshot()), keys) });
  loam = await startLoam({ source: new SdaTransport({ url: fake.url, timeoutMs: 20_000 }), env: { LOAM_UPSTREAM: "sda", ...env } });
  return { fake, loam };
}

describe("upstream calls per request (finding 6)", () => {
  test("a box of 250 uncached map units is refused at the cap, naming it; SDA saw at most the cap and a batch more", async () => {
    const { fake, loam } = await start(250);
    const { status, body } = await loam.json(`/v1/soil/mapunits?bbox=${BBOX}&limit=5000&property=clay`);
    // Before: 200 after 251 SDA queries.
    expect(status).toBe(429);
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.retryable).toBe(true);
    expect(body.error.message).toContain(`more than ${MAX_UPSTREAM_CALLS_PER_REQUEST} upstream queries`);
    await Bun.sleep(200); // calls of the batch already in flight finish
    expect(fake.calls).toBeGreaterThan(MAX_UPSTREAM_CALLS_PER_REQUEST - 1);
    expect(fake.calls).toBeLessThanOrEqual(MAX_UPSTREAM_CALLS_PER_REQUEST + 8);
  }, 60_000);

  test("each upstream query after the first spends the client's rate budget", async () => {
    const { fake, loam } = await start(20, { RATE_LIMIT_PER_MINUTE: "60" });
    const first = await loam.get(`/v1/soil/mapunits?bbox=${BBOX}&limit=5000&property=clay`);
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    // One polygon query and 20 map-unit queries: the request itself and 20 more units of the budget.
    expect(fake.calls).toBe(21);
    const next = await loam.get("/health");
    // Before: 58 (only the two requests were counted).
    expect(Number(next.headers.get("ratelimit-remaining"))).toBe(60 - 1 - 20 - 1);
    // The same request again is answered from the cache: no upstream query, one unit.
    const again = await loam.get(`/v1/soil/mapunits?bbox=${BBOX}&limit=5000&property=clay`);
    expect(again.status).toBe(200);
    expect(Number(again.headers.get("ratelimit-remaining"))).toBe(60 - 1 - 20 - 1 - 1);
    expect(fake.calls).toBe(21);
  }, 60_000);
});

describe("a map-unit key from the upstream that is not a key (finding 8)", () => {
  for (const bad of ["12ab", "0123", "99999999999"]) {
    test(`'${bad}' is a 502 upstream_error, not a 422`, async () => {
      const { loam } = await start([bad]);
      for (const path of [`/v1/soil/mapunits?bbox=${BBOX}&limit=10&property=clay`, `/v1/soil/mapunits?bbox=${BBOX}&limit=10`]) {
        const { status, body } = await loam.json(path);
        expect(status).toBe(502);
        expect(body.error.code).toBe("upstream_error");
        expect(body.error.message).toContain("map-unit key");
        expect(body.error.message).not.toContain(bad);
      }
    }, 60_000);
  }
});
